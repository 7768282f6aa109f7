package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** The base slice Linux derives from the CPU count, CPU lists, the era's name, and the probes' task group. */
public class HostFactsTest extends JUnitSuite {
    @Test
    public void baseSliceScalesWithOnePlusLog2OfTheCpusUpToEight() {
        assertEquals(750_000L, HostFacts.defaultBaseSliceNs(1));
        assertEquals(1_500_000L, HostFacts.defaultBaseSliceNs(2));
        assertEquals(1_500_000L, HostFacts.defaultBaseSliceNs(3));
        assertEquals(2_250_000L, HostFacts.defaultBaseSliceNs(4));
        assertEquals(3_000_000L, HostFacts.defaultBaseSliceNs(8));
        assertEquals(3_000_000L, HostFacts.defaultBaseSliceNs(64));
    }

    @Test
    public void onlineCpuListsAreCounted() {
        assertEquals(2, HostFacts.onlineCpus("0-1"));
        assertEquals(5, HostFacts.onlineCpus("0,2-5"));
        assertEquals(1, HostFacts.onlineCpus("0\n"));
    }

    @Test
    public void theEraIsNamedAfterTheReleaseWithSafeCharacters() {
        HostFacts h = new HostFacts(
                "6.18.44-fc+v669 #smp", 2, 250, "none", 1_500_000, "derived", 0.1, null, null, null, null);
        assertEquals("host-6.18.44-fc-v669--smp", h.eraName());
    }

    @Test
    public void kernelVersionsCompareByMajorThenMinor() {
        HostFacts h =
                new HostFacts("6.18.44-fc-v669", 2, 250, "none", 1_500_000, "derived", 0.1, null, null, null, null);
        assertTrue(h.kernelAtLeast(6, 9));
        assertTrue(h.kernelAtLeast(6, 13));
        assertTrue(h.kernelAtLeast(5, 20));
        assertTrue(!h.kernelAtLeast(6, 19));
        assertTrue(!h.kernelAtLeast(7, 0));
        assertTrue(!new HostFacts("unknown", 2, 250, "none", 1, "", 0, null, null, null, null).kernelAtLeast(1, 0));
    }

    @Test
    public void thisHostIsRead() {
        HostFacts h = HostFacts.read();
        assertTrue(h.cpus() >= 1);
        assertTrue(h.baseSliceNs() >= 750_000L);
        assertTrue(!h.release().isBlank());
    }

    /**
     * A load average above the CPUs is a busy machine only if the CPUs were busy when the calibration started: right
     * after another calibration the load average still counts its thousands of short processes for a minute.
     */
    @Test
    public void aHighLoadAverageIsBusyOnlyWithBusyCpus() {
        assertTrue(!new HostFacts("6.18", 2, 250, "none", 1, "", 59.4, 0.03, null, null, null).busy());
        assertTrue(new HostFacts("6.18", 2, 250, "none", 1, "", 5.0, 0.6, null, null, null).busy());
        assertTrue(
                "not sampled (an older recording): the load average decides",
                new HostFacts("6.18", 2, 250, "none", 1, "", 5.0, null, null, null, null).busy());
        assertTrue(!new HostFacts("6.18", 2, 250, "none", 1, "", 1.5, 0.9, null, null, null).busy());
        Double share = HostFacts.read().busyAtStart();
        assertTrue(String.valueOf(share), share == null || share >= 0 && share <= 1);
    }

    /**
     * The kernel's rule (autogroup_task_group, task_wants_autogroup): a cpu cgroup other than the root wins; in the
     * root one, sched_autogroup's session group when enabled; else the root group with the kernel threads.
     */
    @Test
    public void theProbesTaskGroupFollowsTheCpuCgroupThenTheAutogroup() {
        java.util.function.UnaryOperator<String> noCpu = p -> "memory pids";
        java.util.function.UnaryOperator<String> cpu = p -> "cpu memory pids";
        String v1Root = "4:memory:/x\n1:cpu,cpuacct:/\n0::/";
        // this machine's: cgroup v1, root cpu cgroup, autogroup on, a login session's group
        String[] g = HostFacts.taskGroup(v1Root, "1", "/autogroup-64 nice 0", noCpu);
        assertEquals("session", g[0]);
        assertEquals(
                "sched_autogroup: kernel.sched_autogroup_enabled = 1, /proc/self/autogroup /autogroup-64 nice 0", g[1]);
        // autogroup off (sysctl 0), or the task in init's session (the file is empty there): root
        assertEquals("root", HostFacts.taskGroup(v1Root, "0", "/autogroup-64 nice 0", noCpu)[0]);
        assertEquals("root", HostFacts.taskGroup(v1Root, "1", "", noCpu)[0]);
        assertEquals("root", HostFacts.taskGroup(v1Root, "", "", noCpu)[0]); // no CONFIG_SCHED_AUTOGROUP
        // a v1 cpu cgroup of its own: session, whatever the autogroup
        g = HostFacts.taskGroup("3:cpu,cpuacct:/user.slice\n0::/", "0", "", noCpu);
        assertEquals("session", g[0]);
        assertEquals("cpu cgroup /user.slice", g[1]);
        // v2: a cgroup below a root that enables the cpu controller; without it, the autogroup decides
        assertEquals("session", HostFacts.taskGroup("0::/system.slice/x.service", "0", "", cpu)[0]);
        assertEquals("root", HostFacts.taskGroup("0::/system.slice/x.service", "0", "", noCpu)[0]);
        assertEquals("root", HostFacts.taskGroup("0::/", "0", "", cpu)[0]);
    }
}
