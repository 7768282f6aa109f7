package org.netnslab.workload.injection;

import static org.junit.Assert.assertEquals;

import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.RunResult;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code workload.listeners-woken-at-end} and {@code costs.uevent.listener-stop}: the calibrate probe's end, whose
 * stop pipe wakes every listener once more. Every listener cost here is whole microseconds and jitter is 0, so the
 * listeners' CPU counter (us) moves by exactly what the end charges.
 */
public class ListenerStopTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @ClassRule
    public static final VirtualRuns RUNS = new VirtualRuns("listener-stop");

    /** Three netns with a listener each and their injectors on 2 CPUs; the listeners' CPU counter of each design. */
    private long[] listenerCpu(boolean wokenAtEnd) throws Exception {
        String text = String.join(
                "\n",
                "name = listener-stop",
                "description = \"three netns, a listener and an injector each, fair scheduler\"",
                "seed = \"none\"",
                "workload {",
                "  type = uevent-injection",
                "  netns { userns-owned = 3 }",
                "  listeners-per-netns = 1",
                "  injections-per-netns = 200",
                "  injectors = 3",
                "  listeners-woken-at-end = " + wokenAtEnd,
                "}",
                "execution = virtual",
                "machine { cpus = 2, scheduler = fair, preempt = none, jitter = 0, context-switch = 2us }",
                "designs = [plain, stopping]",
                "custom-designs {",
                "  plain { uevent { serialization = lockless, seqnum-scope = global },"
                        + " costs.uevent { recv = 1us, listener-user = 1us } }",
                "  stopping { uevent { serialization = lockless, seqnum-scope = global },"
                        + " costs.uevent { recv = 1us, listener-user = 1us, listener-stop = 7us } }",
                "}",
                "");
        RunResult r = RUNS.run(tmp, text);
        return new long[] {cpu(r, "plain"), cpu(r, "stopping")};
    }

    private static long cpu(RunResult r, String design) {
        return VirtualRuns.design(r, design).counters().get("listener_cpu_us");
    }

    /**
     * Woken at the end, each of the three listeners runs its stop (7 us: 21 us between the two designs), and one
     * that another task followed on its CPU pays a switch-in (2 us) too. Not woken, the stop's cost changes nothing.
     */
    @Test
    public void eachListenerPaysOneSwitchInAndItsStopAtTheEnd() throws Exception {
        long[] without = listenerCpu(false);
        long[] with = listenerCpu(true);
        assertEquals("not woken: the stop's cost is never charged", without[0], without[1]);
        assertEquals("woken: the stop's 7 us on each of the three", 3 * 7, with[1] - with[0]);
        // the two listeners that drained last on their CPUs are woken there with no other task in between: no switch
        assertEquals("woken, no stop cost: one switch-in (2 us)", 2, with[0] - without[0]);
    }
}
