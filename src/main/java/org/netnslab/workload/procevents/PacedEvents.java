package org.netnslab.workload.procevents;

import akka.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.List;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.Step;
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
     * Process i's FORK at i x interval, its EXEC {@code workload.exec-delay} later (0: with the fork; below half an
     * interval), the EXIT beside them (of the process {@link ProcEventsWorkload#exitAfterForks} earlier) half an
     * interval after the fork, so a listener that keeps up wakes once for each (once for a fork and exec together
     * without the delay) and once for an exit; then {@code after}. Past the last fork each exit takes a step of its
     * own; steps with no event are not counted (with fewer processes than the wave, the exits follow the forks at
     * once).
     *
     * @param exitSwitch {@code costs.proc.exit-switch}, ns: above 0 on the fair machine, each exit is published
     *     from an exiting task that dies on its CPU
     */
    static void publish(
            List<ProcEvent> events,
            ActorRef<ProcConnector.Command> pc,
            Machine machine,
            long interval,
            long execDelay,
            long exitSwitch,
            Runnable after) {
        Publisher publisher = new Publisher(pc, machine, exitSwitch, after);
        long[] times = times(events, interval, execDelay);
        List<ProcEvent> group = new ArrayList<>();
        long groupAt = -1;
        long last = 0;
        for (int i = 0; i < events.size(); i++) {
            long at = times[i];
            if (at != groupAt && !group.isEmpty()) {
                publisher.schedule(group, groupAt);
                group = new ArrayList<>();
            }
            groupAt = at;
            group.add(events.get(i));
            last = Math.max(last, at); // the latest event, whatever the list's order: the sockets close after it
        }
        if (!group.isEmpty()) {
            publisher.schedule(group, groupAt);
        }
        machine.engine().schedule(last, publisher::lastTimerPassed);
    }

    /**
     * When each event comes, as {@link #publish} paces them: process i's FORK at i x interval, its EXEC {@code
     * execDelay} later, an EXIT half an interval after the FORK it comes beside; past the last fork each exit a step of
     * its own.
     *
     * @param events the events, in the order the process table made them
     * @param interval {@code workload.process-interval}, ns, above 0
     * @param execDelay {@code workload.exec-delay}, ns
     * @return each event's time from the start, ns
     */
    static long[] times(List<ProcEvent> events, long interval, long execDelay) {
        long forks = events.stream().filter(e -> e.what() == ProcEvents.FORK).count();
        long[] times = new long[events.size()];
        long step = -1;
        long forksSeen = 0;
        ProcEvent prev = null;
        for (int i = 0; i < events.size(); i++) {
            ProcEvent e = events.get(i);
            if (e.what() == ProcEvents.FORK) {
                step++;
                forksSeen++;
                times[i] = step * interval;
            } else if (e.what() == ProcEvents.EXIT) {
                if (forksSeen == forks && (prev == null || prev.what() == ProcEvents.EXIT)) {
                    step++; // past the last fork: one exit per step
                }
                times[i] = step * interval + interval / 2;
            } else {
                times[i] = step * interval + (e.what() == ProcEvents.EXEC ? execDelay : 0);
            }
            prev = e;
        }
        return times;
    }

    /** Publishes the groups, and runs {@code after} once the last timer has passed and every exit is published. */
    private static final class Publisher {
        private final ActorRef<ProcConnector.Command> pc;
        private final Machine machine;
        private final long exitSwitch;
        private final Runnable after;
        /** Exiting tasks made whose exits are not yet published: they may wait for a CPU past the last timer. */
        private int exiting;

        private boolean lastPassed;

        Publisher(ActorRef<ProcConnector.Command> pc, Machine machine, long exitSwitch, Runnable after) {
            this.pc = pc;
            this.machine = machine;
            this.exitSwitch = exitSwitch;
            this.after = after;
        }

        /**
         * A group of exits, on the fair machine with a charge for the switch away from an exiting process: published
         * from the exiting process's own task (do_exit's proc_exit_connector), which then dies on its CPU, so the
         * listeners it wakes are placed as the kernel's sync wake-ups are (the first on an idle CPU, the next behind
         * the exiting process) and the one that runs next on its CPU pays {@code exitSwitch} ({@link
         * org.netnslab.machine.Cpus#exit}). Other groups are published by an engine timer.
         */
        void schedule(List<ProcEvent> group, long at) {
            if (exitSwitch <= 0 || !machine.fair() || group.get(0).what() != ProcEvents.EXIT) {
                machine.engine().schedule(at, () -> ProcessTable.publish(group, pc, machine::nanoTime));
                return;
            }
            machine.engine().schedule(at, () -> {
                exiting++;
                CpuTask task = machine.newTask("exiting-" + group.get(0).pid(), CpuTask.Kind.OTHER, false);
                machine.cpus().run(task, Step.KERNEL, 0, () -> {
                    ProcessTable.publish(group, pc, machine::nanoTime);
                    machine.cpus().exit(task, exitSwitch);
                    exiting--;
                    if (lastPassed && exiting == 0) {
                        after.run();
                    }
                });
            });
        }

        void lastTimerPassed() {
            lastPassed = true;
            if (exiting == 0) {
                after.run();
            }
        }
    }
}
