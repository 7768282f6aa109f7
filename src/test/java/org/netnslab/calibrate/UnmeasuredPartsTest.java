package org.netnslab.calibrate;

import static org.junit.Assert.assertEquals;

import java.util.Map;
import org.junit.Test;
import org.netnslab.calibrate.CostFit.Fitted;
import org.scalatestplus.junit.JUnitSuite;

/** A calibration of some parts only (--only) says which were not measured, beside its headline and in the config. */
public class UnmeasuredPartsTest extends JUnitSuite {
    private static Fitted cost() {
        return new Fitted(1000, "a probe", 3, 0.01);
    }

    @Test
    public void thePartsNotRunAreNamedInTheirOrder() {
        CostFit procOnly = new CostFit(Map.of("costs.proc.recvmsg", cost()), Map.of(), Map.of());
        assertEquals(
                " Not measured (calibrate --only): the uevent and lifecycle loads; what this says holds for the parts"
                        + " run, and calibrated.conf keeps reference.conf's costs for the others.",
                CalibrationConsole.unmeasured(procOnly));
        // a part whose costs were all NOT FITTED was still measured
        CostFit all = new CostFit(
                Map.of("costs.proc.recvmsg", cost(), "costs.uevent.send-inside", cost()),
                Map.of(),
                Map.of("costs.netns.setup-net", "no serial loop line"));
        assertEquals("", CalibrationConsole.unmeasured(all));
        assertEquals("", CalibrationConsole.unmeasured(new CostFit(Map.of(), Map.of(), Map.of())));
    }
}
