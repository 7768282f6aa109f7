package org.netnslab.workload.injection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.RunResult;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The fault switches in a uevent-injection run (virtual time): a listener the switch kills closes its socket and
 * the run goes on, its unread messages are no loss, and each switch that is on is reported with what it fired.
 */
public class InjectionFaultsTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @ClassRule
    public static final VirtualRuns RUNS = new VirtualRuns("injection-faults");

    private static String scenario(String faults) {
        return String.join(
                "\n",
                "name = injection-faults",
                "description = \"four netns, one listener each\"",
                "seed = none",
                "workload {",
                "  type = uevent-injection",
                "  netns { userns-owned = 0, init-owned = 4 }",
                "  injections-per-netns = 50",
                "  injectors = 4",
                "}",
                "model.faults { " + faults + " }",
                "designs = [\"kernel-4.18\", \"kernel-6.9\"]",
                "baseline = \"kernel-4.18\"",
                "");
    }

    @Test
    public void aListenerKilledByTheSwitchEndsNoRunAndLosesNothing() throws Exception {
        // every recvmsg faults: each of the 4 listeners dies at its first, with 50 more messages sent its way
        RunResult r = RUNS.run(tmp, scenario("listener = 1"));
        for (var d : r.designs()) {
            assertEquals(d.name(), Long.valueOf(4), d.counters().get("faults_listener"));
            assertEquals(d.name(), Long.valueOf(4), d.counters().get("listeners_failed_by_fault"));
            assertEquals(d.name(), 200, d.recorders().get("uevent.transaction").count());
            assertEquals(d.name(), 0, d.invariants().get(Invariants.Counter.LOST_WITHOUT_ENOBUFS));
            assertEquals(d.name(), 0, d.invariants().get(Invariants.Counter.LEAKED));
            assertFalse(d.name(), d.counters().containsKey("faults_netns_actor"));
        }
        // invariants that held over listeners that read nothing were not tested: the verdict says so
        String console = org.netnslab.report.ConsoleReport.render(
                org.netnslab.report.RunRecord.of(r, org.netnslab.report.RunRecord.Machine.current()));
        org.junit.Assert.assertTrue(
                console,
                console.contains("Invariants: all held in every design; listeners killed by faults.listener"
                        + " (kernel-4.18 4, kernel-6.9 4) read nothing after it, so their messages were not checked."));
    }

    @Test
    public void aSwitchWhoseMessagesNeverComeIsReportedAtZero() throws Exception {
        // a virtual injection runs on its injector's task, never through the netns actor
        RunResult r = RUNS.run(tmp, scenario("netns-actor = 2"));
        for (var d : r.designs()) {
            assertEquals(d.name(), Long.valueOf(0), d.counters().get("faults_netns_actor"));
            assertFalse(d.name(), d.counters().containsKey("listeners_failed_by_fault"));
            assertEquals(d.name(), 200, d.recorders().get("uevent.transaction").count());
        }
    }
}
