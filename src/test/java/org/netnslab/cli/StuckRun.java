package org.netnslab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.netnslab.run.RunObserver;

/**
 * A netns-lab process whose run can no longer end, as {@link WatchdogTest} needs one: set up as {@link Main#main}
 * sets up, a run registered with its output staged and in the middle of a phase, then stuck in one of the ways an
 * exhausted heap leaves a run. {@code thrown}: a thread dies of an OutOfMemoryError no one catches while the main
 * thread waits for it forever (as the runner waits for its lanes). {@code heap-full}: the heap four fifths full of
 * live data and the collector running without end (as G1 does when each full collection frees a little), no
 * OutOfMemoryError ever thrown.
 *
 * <p>Arguments: the output folder, then {@code thrown} or {@code heap-full}.
 */
final class StuckRun {
    private StuckRun() {}

    /** @param args the output folder and how to be stuck */
    public static void main(String[] args) throws Exception {
        Main.setUp();
        NowRunning now = NowRunning.scenario("stuck", RunObserver.SILENT, false);
        try (StagedRun staged = StagedRun.begin(Path.of(args[0]), "stuck", now)) {
            now.designStarting("kernel-4.18");
            now.phaseStarting("kernel-4.18", "counted", 100, () -> 42);
            if (args[1].equals("thrown")) {
                Thread lane = new Thread(() -> {
                    throw new OutOfMemoryError("Java heap space");
                });
                lane.start();
                lane.join();
                Thread.sleep(Long.MAX_VALUE);
            }
            List<byte[]> live = new ArrayList<>();
            long max = Runtime.getRuntime().maxMemory();
            for (long held = 0; held < max * 4 / 5; held += 16 << 10) {
                live.add(new byte[16 << 10]);
            }
            while (live.size() > 0) {
                System.gc();
            }
        }
    }
}
