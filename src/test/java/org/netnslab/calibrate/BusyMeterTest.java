package org.netnslab.calibrate;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@link BusyMeter}: other work is the CPUs' busy time less calibrate's own and the kernel threads'; the busiest run
 * of a second or more counts alone; a busy machine is said beside the count ({@link CalibrationConsole#headline}).
 */
public class BusyMeterTest extends JUnitSuite {
    private static final HostFacts HOST =
            new HostFacts("6.18.44-test", 2, 250, "none", 1_500_000, "derived", 0.0, null, null, null, null);

    @Test
    public void aStatLineGivesFlagsAndTimes() {
        // a kworker: PF_KTHREAD | PF_WQ_WORKER...; its comm has a space and a parenthesis
        String kworker = "8123 (kworker/1:2-(ev ents)) I 2 0 0 0 -1 69238880 0 0 0 0 17 42 5 6 20 0 1 0 3 0 0";
        assertArrayEquals(new long[] {69238880, 17, 42, 5, 6}, BusyMeter.times(kworker));
    }

    /**
     * A kernel thread that exits during a run (netns teardown's kworkers) takes its whole time out of a plain sum of
     * the threads' times: other work then came out above the CPUs' time (a share of 1.25, which calibrate --from
     * refused). Per thread, an exited one counts nothing and a new one its time: other work stays within the busy
     * time.
     */
    @Test
    public void aKernelThreadThatExitsDoesNotMakeOtherWorkExceedTheCpus() {
        // 100 ticks of two CPUs, 90 busy: 30 ours; kworker 7 (500 ticks before) exited, kworker 9 is new with 20
        BusyMeter.Sample a = new BusyMeter.Sample(1000, 5000, 100, Map.of(2L, 300L, 7L, 500L));
        BusyMeter.Sample b = new BusyMeter.Sample(1090, 5100, 130, Map.of(2L, 310L, 9L, 20L));
        assertArrayEquals(new long[] {90 - 30 - 10 - 20, 100}, BusyMeter.other(a, b));
    }

    @Test
    public void otherWorkIsTheBusyTimeLessOursAndTheKernelThreads() {
        BusyMeter.Sample a = new BusyMeter.Sample(1000, 5000, 100, Map.of(2L, 300L));
        // 200 ticks (2 s on 100-tick clocks) of two CPUs: 180 busy, of which 60 ours and 30 kernel threads'
        BusyMeter.Sample b = new BusyMeter.Sample(1180, 5200, 160, Map.of(2L, 330L));
        assertArrayEquals(new long[] {90, 200}, BusyMeter.other(a, b));
        BusyMeter m = new BusyMeter();
        m.add("fit set: quiet", a, new BusyMeter.Sample(1010, 5200, 105, Map.of(2L, 303L)), 1.0);
        m.add("prediction set: busy", a, b, 1.0);
        m.add("prediction set: short and busier", a, new BusyMeter.Sample(1040, 5040, 100, Map.of(2L, 300L)), 0.2);
        ProbesBusy busy = m.result();
        assertEquals((2 + 90 + 40) / 440.0, busy.share(), 1e-9);
        assertEquals("prediction set: busy", busy.busiest()); // the 0.2 s run is too short to count alone
        assertEquals(0.45, busy.busiestShare(), 1e-9);
        assertTrue(busy.busy());
        assertEquals(
                "other work took 30% of the CPUs over 2 s of probe runs, 45% during prediction set: busy", busy.text());
    }

    @Test
    public void aQuietMachineIsNotBusyAndNoSampleSaysNothing() {
        assertFalse(new ProbesBusy(0.2, 40, "x", 0.45).busy());
        assertTrue(new ProbesBusy(0.2, 40, "x", 0.55).busy());
        BusyMeter m = new BusyMeter();
        m.add("no /proc", null, null, 1.0);
        assertNull(m.result());
    }

    @Test
    public void thisMachineCanBeSampled() {
        BusyMeter.Sample s = BusyMeter.sample();
        assertNotNull(s);
        assertTrue(
                s.toString(),
                s.total() >= s.busy() && s.busy() > 0 && !s.kthreads().isEmpty() && s.ours() > 0);
    }

    @Test
    public void aBusyMachineIsSaidBesideTheCount() {
        Predictions.Row in = new Predictions.Row(
                "tc1 N=10", "send p50, us", 2, 2, "2x", true, "", "", 3, 1, 3, Double.NaN, Double.NaN);
        Predictions.Row out = new Predictions.Row(
                "tc1 N=10", "send p99, us", 8, 3, "2x", false, "SPRD", "why", 3, 5, 9, Double.NaN, Double.NaN);
        assertEquals(
                "3 of 4 predictions within their band on kernel 6.18.44-test, measured on a busy machine (other work"
                        + " took 31% of the CPUs over 42 s of probe runs, 64% during prediction set: uevent_probe tc1 10"
                        + " 500): the calibrated model reproduces most contended loads it was not fitted on; trust its"
                        + " figures for this kernel, except on the measure marked MISS.",
                CalibrationConsole.headline(
                        HOST.withBusyDuringProbes(
                                new ProbesBusy(0.31, 42, "prediction set: uevent_probe tc1 10 500", 0.64)),
                        List.of(in, in, in, out)));
        assertEquals(
                "All 2 predictions within their band on kernel 6.18.44-test: the calibrated model reproduces every"
                        + " contended load it was not fitted on, so its figures for this kernel can be trusted within these"
                        + " bands.",
                CalibrationConsole.headline(HOST, List.of(in, in)));
        assertTrue(CalibrationConsole.headline(HOST, List.of(in, out, out))
                .endsWith(": the calibrated model does not reproduce this kernel's contended loads; do not rely on its"
                        + " figures for this kernel."));
    }
}
