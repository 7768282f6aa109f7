package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.Test;
import org.netnslab.run.RunObserver;
import org.scalatestplus.junit.JUnitSuite;

public class NowRunningTest extends JUnitSuite {
    @org.junit.Rule
    public final org.junit.rules.TemporaryFolder tmp = new org.junit.rules.TemporaryFolder();

    /** A scenario's run is said by its name; calibrate, which runs no scenario of the user's, as calibrate. */
    @Test
    public void aRunSaysItsScenarioAndCalibrateSaysItself() {
        NowRunning run = NowRunning.scenario("tc1", RunObserver.SILENT, false);
        assertEquals("in scenario tc1, before its first design started", run.describe());
        NowRunning calibrate = NowRunning.calibrate();
        calibrate.stage("prediction set: uevent_probe tc1 10 5000");
        assertEquals("in calibrate, prediction set: uevent_probe tc1 10 5000", calibrate.describe());
    }

    /** Before a run, nothing was written; after one committed its results, a signal says where they are. */
    @Test
    public void aSignalAfterTheRunSaysWhereItsResultsWent() {
        try {
            Stops.running(null, null);
            Stops.written(null);
            assertEquals("while no run was in progress (none started yet); nothing written", Stops.where());
            Stops.written(java.nio.file.Path.of("out/tc1"));
            assertEquals("after the run; the results were written to out/tc1", Stops.where());
            Stops.written(null);
            // a staged run's close says so once its results are committed, and not when they were not
            java.nio.file.Path parent = tmp.getRoot().toPath();
            java.nio.file.Path dir = parent.resolve("r");
            StagedRun run = StagedRun.begin(dir, "tc1", NowRunning.calibrate());
            run.output().commit();
            run.close();
            assertEquals("after the run; the results were written to " + dir, Stops.where());
            Stops.written(null);
            StagedRun lost = StagedRun.begin(parent.resolve("q"), "tc1", NowRunning.calibrate());
            lost.close();
            assertEquals("while no run was in progress (none started yet); nothing written", Stops.where());
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            Stops.written(null);
        }
    }

    /**
     * A worker's lane is idle between design runs, and an interrupt then says no run was in progress; during one it
     * names the design and its phase, and that the coordinator gets the run back.
     */
    @Test
    public void aWorkerInterruptedMidRunNamesItsDesignAndWhereItGoes() {
        NowRunning lane = NowRunning.worker("127.0.0.1:2552");
        try {
            Stops.running(lane, null);
            assertTrue(lane.idle());
            assertEquals(
                    "while no run was in progress (none started yet, or between a worker's runs); nothing written",
                    Stops.where());
            AtomicLong done = new AtomicLong(2500);
            lane.designStarting("kernel-4.18");
            lane.phaseStarting("kernel-4.18", "counted", 10_000, done::get);
            assertFalse(lane.idle());
            assertEquals(
                    "in the run of the coordinator at 127.0.0.1:2552, design kernel-4.18, phase counted, 25% (2,500 of"
                            + " 10,000); nothing written here: the coordinator gets the design run back",
                    Stops.where());
            lane.phaseDone("kernel-4.18", "counted", 10_000, 1);
            lane.designDone("kernel-4.18");
            assertTrue(lane.idle());
        } finally {
            Stops.running(null, null);
        }
    }
}
