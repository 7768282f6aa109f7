package org.netnslab.workload.procevents;

import akka.NotUsed;
import akka.stream.javadsl.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import org.netnslab.machine.Machine;
import org.netnslab.proc.ProcEvent;
import org.netnslab.proc.ProcScanMonitor;

/**
 * The pidfd and /proc-scan monitors under {@code workload.process-interval} (virtual execution): their processes come
 * and go at the times the connector's listeners get their events ({@link PacedEvents#times}), so every design of a
 * scenario watches the same load, and its run lasts as long. Threading: the engine's driver thread.
 */
final class PacedMonitors {
    private PacedMonitors() {}

    /**
     * The events {@code keep} accepts, each let through at its time from now: a stream a monitor's sink takes them
     * from, in order (one that lags takes the next at once).
     *
     * @param machine the design run's machine, whose engine times them
     * @param events every event of the run, in the process table's order
     * @param times each event's time from now, ns ({@link PacedEvents#times})
     * @param keep the events the monitor learns of
     * @return the paced stream; its timers are set now
     */
    static Source<ProcEvent, NotUsed> paced(
            Machine machine, List<ProcEvent> events, long[] times, Predicate<ProcEvent> keep) {
        List<CompletableFuture<ProcEvent>> due = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            ProcEvent e = events.get(i);
            if (keep.test(e)) {
                CompletableFuture<ProcEvent> f = new CompletableFuture<>();
                due.add(f);
                machine.engine().schedule(times[i], () -> f.complete(e));
            }
        }
        return Source.from(due).mapAsync(1, f -> f);
    }

    /**
     * A /proc scanner over paced processes: each event reaches the process table at its time, and scan k of {@code
     * scans} starts once the events up to its share of them have (the same events before it as unpaced), or when the
     * scan before it ends, whichever is later: a scan slower than the gap between two falls behind, and the processes
     * born and gone meanwhile are missed. Each scan's time runs on a simulated CPU.
     *
     * @param machine the design run's machine
     * @param monitor the scanner
     * @param events every event of the run
     * @param times each event's time from now, ns
     * @param scans how many scans ({@code proc-monitor.scans}); those beyond the events run after the last
     * @param scanNanos told each scan's time, ns
     * @param applied counts each event applied
     * @param done run once the last scan has ended
     */
    static void scan(
            Machine machine,
            ProcScanMonitor monitor,
            List<ProcEvent> events,
            long[] times,
            int scans,
            LongConsumer scanNanos,
            Runnable applied,
            Runnable done) {
        for (int i = 0; i < events.size(); i++) {
            ProcEvent e = events.get(i);
            machine.engine().schedule(times[i], () -> {
                monitor.apply(e);
                applied.run();
            });
        }
        int every = scanEvery(events.size(), scans);
        long last = java.util.Arrays.stream(times).max().orElse(0);
        Scanner scanner = new Scanner(machine, monitor, scans, scanNanos, done);
        for (int k = 1; k <= scans; k++) {
            int upTo = Math.min(k * every, events.size()) - 1; // the last event scan k follows
            long at = upTo >= 0 ? times[upTo] : 0;
            // set after the events' timers: a scan due with an event runs after it (the engine keeps their order)
            machine.engine().schedule(k * every > events.size() ? last : at, scanner::due);
        }
    }

    /**
     * @param events the run's events
     * @param scans {@code proc-monitor.scans}, at least 1
     * @return how many events each scan follows, ceil(events / scans), at least 1
     */
    static int scanEvery(int events, int scans) {
        return Math.max(1, (events + scans - 1) / scans);
    }

    /** Runs the scans one at a time, each as soon as it is due and the one before has ended. */
    private static final class Scanner {
        private final Machine machine;
        private final ProcScanMonitor monitor;
        private final int scans;
        private final LongConsumer scanNanos;
        private final Runnable done;
        private int dueNotRun;
        private int ended;
        private boolean scanning;

        Scanner(Machine machine, ProcScanMonitor monitor, int scans, LongConsumer scanNanos, Runnable done) {
            this.machine = machine;
            this.monitor = monitor;
            this.scans = scans;
            this.scanNanos = scanNanos;
            this.done = done;
        }

        void due() {
            dueNotRun++;
            if (!scanning) {
                next();
            }
        }

        private void next() {
            dueNotRun--;
            scanning = true;
            long scan = monitor.scan();
            scanNanos.accept(scan);
            machine.cpus().run(scan, () -> {
                scanning = false;
                ended++;
                if (ended == scans) {
                    done.run();
                } else if (dueNotRun > 0) {
                    next();
                }
            });
        }
    }
}
