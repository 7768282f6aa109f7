package org.netnslab.proc;

import akka.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.List;
import org.netnslab.machine.Clock;

/**
 * A busy host's process table as the proc connector sees it: short-lived processes, each forking
 * (copy_process, proc_fork_connector), exec'ing (proc_exec_connector) and exiting (do_exit,
 * proc_exit_connector), about {@link #WAVE} of them alive at any time. Deterministic: the same
 * arguments give the same events.
 */
public final class ProcessTable {
    /** The first short-lived process's pid; the long-lived ones sit below it. */
    public static final int FIRST_PID = 100_000;

    /** Processes alive at once: each exits after this many later processes have forked. */
    public static final int WAVE = 1000;

    /** Events the table hands the connector per message: a busy CPU's burst. */
    public static final int BURST = 32;

    private ProcessTable() {}

    /**
     * The events of {@code n} short-lived processes: process i (pid {@link #FIRST_PID} + i, on CPU i mod
     * 2) forks and execs, and exits once process i + {@link #WAVE} has forked. Timestamps are 0 until
     * {@link #publish} stamps them.
     *
     * @param n processes
     * @param nonzeroFraction share of them that exit with a non-zero status, spread evenly: half by
     *     exit(1), half killed by SIGKILL
     * @return FORK, EXEC and EXIT events in the order the processes produce them, 3n in all
     */
    public static List<ProcEvent> shortLived(long n, double nonzeroFraction) {
        return shortLived(n, nonzeroFraction, WAVE);
    }

    /**
     * As {@link #shortLived(long, double)}, each process exiting once {@code wave} later ones have forked: 0 for a
     * serial spawner (fork, exec and exit, then the next fork: calibrate's {@code proc_probe}, whose parent waits for
     * each child).
     *
     * @param n processes
     * @param nonzeroFraction as above
     * @param wave later forks before a process exits, 0..
     * @return FORK, EXEC and EXIT events in the order the processes produce them, 3n in all
     */
    public static List<ProcEvent> shortLived(long n, double nonzeroFraction, int wave) {
        List<ProcEvent> out = new ArrayList<>();
        for (long i = 0; i < n + wave; i++) {
            if (i < n) {
                int pid = FIRST_PID + (int) i;
                out.add(new ProcEvent(ProcEvents.FORK, (int) (i % 2), 0, 0, pid, pid, 1, 0, 0));
                out.add(new ProcEvent(ProcEvents.EXEC, (int) (i % 2), 0, 0, pid, pid, 0, 0, 0));
            }
            long dying = i - wave;
            if (dying >= 0 && dying < n) {
                boolean nonzero = Math.floor((dying + 1) * nonzeroFraction) > Math.floor(dying * nonzeroFraction);
                // half of the abnormal deaths are exit(1), half are SIGKILL (wait status 9)
                int status = !nonzero ? 0 : (dying % 2 == 0 ? 1 << 8 : 9);
                int pid = FIRST_PID + (int) dying;
                out.add(new ProcEvent(ProcEvents.EXIT, (int) (dying % 2), 0, 0, pid, pid, 0, status, 17));
            }
        }
        return out;
    }

    /**
     * Reports {@code events} to the proc connector as they happen, in bursts of {@link #BURST}, each
     * event stamped with the time it is generated ({@link Clock#nanoTime()}).
     *
     * @param events the events, in order
     * @param connector the proc connector
     */
    public static void publish(List<ProcEvent> events, ActorRef<ProcConnector.Command> connector) {
        publish(events, connector, Clock::nanoTime);
    }

    /**
     * As {@link #publish(List, ActorRef)}, stamping with {@code clock}: runner code outside the virtual
     * engine passes the machine's clock ({@link org.netnslab.machine.Machine#nanoTime()}), so the stamps
     * and the listeners' receive times are on the same (simulated) clock.
     *
     * @param clock now, ns
     */
    public static void publish(
            List<ProcEvent> events, ActorRef<ProcConnector.Command> connector, java.util.function.LongSupplier clock) {
        List<ProcEvent> burst = new ArrayList<>(BURST);
        for (ProcEvent e : events) {
            burst.add(new ProcEvent(
                    e.what(),
                    e.cpu(),
                    0,
                    clock.getAsLong(),
                    e.pid(),
                    e.tgid(),
                    e.parentPid(),
                    e.exitCode(),
                    e.exitSignal()));
            if (burst.size() == BURST) {
                connector.tell(new ProcConnector.PublishBurst(burst));
                burst = new ArrayList<>(BURST);
            }
        }
        if (!burst.isEmpty()) {
            connector.tell(new ProcConnector.PublishBurst(burst));
        }
    }
}
