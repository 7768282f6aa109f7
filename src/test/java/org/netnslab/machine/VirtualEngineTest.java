package org.netnslab.machine;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** The engine's order of events: by time, then by the order they were scheduled in, whichever thread did. */
public class VirtualEngineTest extends JUnitSuite {
    private static final long IDLE = 5_000_000_000L;

    /**
     * Events another thread schedules (a runner between its runs) are numbered in the order of its calls, before
     * anything the driver schedules afterwards: at equal times they run in that order, and a driver's event of the
     * same time after them.
     */
    @Test
    public void anotherThreadsEventsKeepTheirCallOrderAmongTheDrivers() throws VirtualEngine.Stalled {
        VirtualEngine e = VirtualEngine.create();
        try {
            List<String> ran = new ArrayList<>();
            e.schedule(10, () -> ran.add("a@" + e.now()));
            e.schedule(10, () -> ran.add("b@" + e.now()));
            e.schedule(5, () -> {
                ran.add("c@" + e.now());
                e.schedule(5, () -> ran.add("d@" + e.now())); // the driver's, due at 10 too
            });
            VirtualEngine.Event dropped = e.schedule(7, () -> ran.add("dropped"));
            dropped.cancel();
            e.runUntil(() -> ran.size() == 4, t -> {}, IDLE);
            assertEquals(List.of("c@5", "a@10", "b@10", "d@10"), ran);
            assertEquals("a cancelled event does not run", 4, e.eventsRun());
        } finally {
            e.unregister();
        }
    }

    /** An event scheduled by another thread while the driver runs (or waits) runs, at its time. */
    @Test
    public void anEventFromAnotherThreadWhileTheEngineRunsIsTakenIn() throws Exception {
        VirtualEngine e = VirtualEngine.create();
        try {
            List<Long> ran = new ArrayList<>();
            Thread other = new Thread(() -> e.schedule(0, () -> ran.add(e.now())));
            e.schedule(3, () -> other.start()); // the driver waits for it: nothing else is left
            e.runUntil(() -> ran.size() == 1, t -> {}, IDLE);
            other.join();
            assertEquals(List.of(3L), ran);
        } finally {
            e.unregister();
        }
    }
}
