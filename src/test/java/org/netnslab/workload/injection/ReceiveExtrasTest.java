package org.netnslab.workload.injection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.AfterClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.RunResult;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code costs.uevent.drain-cycle}, {@code recv-backlog-evicted} / {@code recv-backlog-cached} and {@code recv-remote}:
 * what a listener's receive costs more by when and where its message was made. Every cost is whole microseconds and
 * jitter is 0, so the listeners' CPU counter (us) moves by whole multiples of the extra charged.
 */
public class ReceiveExtrasTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final VirtualRuns RUNS = new VirtualRuns("receive-extras");

    private static final String[] DESIGNS = {
        "plain { }",
        "cycle { drain-cycle = 5us }",
        "backlog { recv-backlog-evicted = 3us, recv-backlog-cached = 0 }",
        "cached { recv-backlog-evicted = 3us, recv-backlog-cached = 10000000 }",
        "remote { recv-remote = 4us }"
    };

    @AfterClass
    public static void stop() throws Exception {
        RUNS.close();
    }

    /** Two netns with a listener and an injector each on {@code cpus} CPUs: each design's listeners' CPU, us. */
    private RunResult run(int cpus) throws Exception {
        StringBuilder designs = new StringBuilder();
        for (String d : DESIGNS) {
            String name = d.substring(0, d.indexOf(' '));
            String keys = d.substring(d.indexOf('{') + 1, d.lastIndexOf('}')).trim();
            designs.append("  ")
                    .append(name)
                    .append(" { uevent { serialization = lockless, seqnum-scope = global },")
                    .append(" costs.uevent { recv = 1us, listener-user = 1us")
                    .append(keys.isEmpty() ? "" : ", " + keys)
                    .append(" } }\n");
        }
        String text = String.join(
                "\n",
                "name = receive-extras",
                "description = \"two netns, a listener and an injector each, fair scheduler\"",
                "seed = \"none\"",
                "workload {",
                "  type = uevent-injection",
                "  netns { userns-owned = 2 }",
                "  listeners-per-netns = 1",
                "  injections-per-netns = 300",
                "  injectors = 2",
                "}",
                "execution = virtual",
                "machine { cpus = " + cpus + ", scheduler = fair, preempt = none, jitter = 0, context-switch = 2us }",
                "designs = [plain, cycle, backlog, cached, remote]",
                "custom-designs {",
                designs.toString(),
                "}",
                "");
        return RUNS.run(tmp, text);
    }

    private static long cpu(RunResult r, String design) {
        return VirtualRuns.design(r, design).counters().get("listener_cpu_us");
    }

    /**
     * On one CPU every message is read where it was made: the other CPU's extra is never charged, a backlog under the
     * cached skbs costs nothing, and a backlog with none cached and each wake-up's drain cycle cost whole multiples of
     * their extras, some of them.
     */
    @Test
    public void onOneCpuTheBacklogAndTheDrainCyclesAreCharged() throws Exception {
        RunResult r = run(1);
        long plain = cpu(r, "plain");
        assertEquals("no message read on another CPU", plain, cpu(r, "remote"));
        assertEquals("every backlog under the cached skbs", plain, cpu(r, "cached"));
        long backlog = cpu(r, "backlog") - plain;
        long cycles = cpu(r, "cycle") - plain;
        assertTrue("some receives after a backlog: " + backlog, backlog > 0 && backlog % 3 == 0);
        assertTrue("some drain cycles: " + cycles, cycles > 0 && cycles % 5 == 0);
        assertTrue("not every message starts a cycle: " + cycles, cycles / 5 < 600);
    }

    /**
     * On two CPUs each listener is woken by its injector's sync wake-up and stays on that CPU (wake_affine), so it reads
     * every message where it was made: the other CPU's extra is never charged, the backlog's is.
     */
    @Test
    public void onTwoCpusTheListenersReadWhereTheirInjectorsSent() throws Exception {
        RunResult r = run(2);
        assertEquals(cpu(r, "plain"), cpu(r, "remote"));
        assertTrue(cpu(r, "backlog") > cpu(r, "plain"));
    }
}
