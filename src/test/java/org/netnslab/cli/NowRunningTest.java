package org.netnslab.cli;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.netnslab.run.RunObserver;
import org.scalatestplus.junit.JUnitSuite;

public class NowRunningTest extends JUnitSuite {
    /** A scenario's run is said by its name; calibrate, which runs no scenario of the user's, as calibrate. */
    @Test
    public void aRunSaysItsScenarioAndCalibrateSaysItself() {
        NowRunning run = NowRunning.scenario("tc1", RunObserver.SILENT, false);
        assertEquals("in scenario tc1, before its first design started", run.describe());
        NowRunning calibrate = NowRunning.calibrate();
        calibrate.stage("prediction set: uevent_probe tc1 10 5000");
        assertEquals("in calibrate, prediction set: uevent_probe tc1 10 5000", calibrate.describe());
    }
}
