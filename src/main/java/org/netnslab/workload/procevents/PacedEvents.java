package org.netnslab.workload.procevents;

import akka.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.List;
import org.netnslab.machine.Machine;
import org.netnslab.proc.ProcConnector;
import org.netnslab.proc.ProcEvent;
import org.netnslab.proc.ProcEvents;
import org.netnslab.proc.ProcessTable;

/**
 * The publication of a {@code proc-events} stream paced by {@code workload.process-interval} (virtual
 * execution): each group of events that falls on one simulated instant is published by a timer of the
 * machine's engine.
 */
final class PacedEvents {
    private PacedEvents() {}

    /**
     * Process i's FORK at i x interval, its EXEC
     * {@code workload.exec-delay} later (0: with the fork; below half an interval), the EXIT beside them (of the process {@link
     * ProcessTable#WAVE} earlier) half an interval after the fork, so a listener that keeps up wakes once for each
     * (once for a fork and exec together without the delay) and once for an exit; then {@code after}. Past the last
     * fork each exit takes a step of its own; steps with no event are not counted (with fewer processes than the
     * wave, the exits follow the forks at once).
     */
    static void publish(
            List<ProcEvent> events,
            ActorRef<ProcConnector.Command> pc,
            Machine machine,
            long interval,
            long execDelay,
            Runnable after) {
        long forks = events.stream().filter(e -> e.what() == ProcEvents.FORK).count();
        long step = -1;
        long forksSeen = 0;
        List<ProcEvent> group = new ArrayList<>();
        long groupAt = -1;
        long last = 0;
        for (ProcEvent e : events) {
            long at;
            if (e.what() == ProcEvents.FORK) {
                step++;
                forksSeen++;
                at = step * interval;
            } else if (e.what() == ProcEvents.EXIT) {
                if (forksSeen == forks
                        && (group.isEmpty() || group.get(group.size() - 1).what() == ProcEvents.EXIT)) {
                    step++; // past the last fork: one exit per step
                }
                at = step * interval + interval / 2;
            } else {
                at = step * interval + (e.what() == ProcEvents.EXEC ? execDelay : 0);
            }
            if (at != groupAt && !group.isEmpty()) {
                schedulePublish(group, pc, machine, groupAt);
                group = new ArrayList<>();
            }
            groupAt = at;
            group.add(e);
            last = Math.max(last, at); // the latest event, whatever the list's order: the sockets close after it
        }
        if (!group.isEmpty()) {
            schedulePublish(group, pc, machine, groupAt);
        }
        machine.engine().schedule(last, after);
    }

    private static void schedulePublish(
            List<ProcEvent> group, ActorRef<ProcConnector.Command> pc, Machine machine, long at) {
        machine.engine().schedule(at, () -> ProcessTable.publish(group, pc, machine::nanoTime));
    }
}
