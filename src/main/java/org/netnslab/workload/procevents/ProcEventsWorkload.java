package org.netnslab.workload.procevents;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netnslab.proc.ProcMonitor;
import org.netnslab.run.DesignRunner;
import org.netnslab.workload.PopulationBytes;
import org.netnslab.workload.Workload;

/**
 * The {@code proc-events} workload (the 2023 proc connector series): {@code processes} short-lived
 * processes, each forking, exec'ing and exiting, a share of them with a non-zero status; listeners
 * with the event masks they want; the design decides how they learn of it (connector, pidfd, /proc
 * scan).
 *
 * @param processes short-lived processes at scale 1
 * @param nonzeroExitFraction share of them that exit non-zero (half by exit(1), half killed by a signal)
 * @param listeners listener name to PROC_EVENT_* mask, in order
 * @param processIntervalNanos virtual execution: simulated time between two processes' starts, ns (a
 *     process's fork event at its start, its exec {@code execDelayNanos} later, the exit of the process {@code
 *     exitAfterForks} earlier half an interval after the start); 0: every event at once
 *     (listeners then drain one backlog: one wake-up each)
 * @param execDelayNanos virtual execution with a process interval: from a process's FORK event
 *     (proc_fork_connector in copy_process, kernel/fork.c) to its EXEC (proc_exec_connector at the end of the
 *     child's execve, fs/exec.c), ns, below half the interval (where the exits come); 0: both at once (the
 *     pacing the proc-filter seed fit was made with)
 * @param exitAfterForks later processes that fork before a process exits: {@link
 *     org.netnslab.proc.ProcessTable#WAVE} (a busy host's thousand alive) by default, 0 for a serial spawner whose
 *     parent waits for each child (fork, exec, exit, then the next fork)
 */
public record ProcEventsWorkload(
        long processes,
        double nonzeroExitFraction,
        Map<String, Integer> listeners,
        long processIntervalNanos,
        long execDelayNanos,
        int exitAfterForks)
        implements Workload {

    /**
     * Every event at once.
     *
     * @param processes processes
     * @param nonzeroExitFraction share exiting non-zero
     * @param listeners listener name to mask
     */
    public ProcEventsWorkload(long processes, double nonzeroExitFraction, Map<String, Integer> listeners) {
        this(processes, nonzeroExitFraction, listeners, 0, 0, org.netnslab.proc.ProcessTable.WAVE);
    }

    /** Measure: end-to-end event latency, generation to a listener's receipt, us (connector only). */
    public static final String EVENT = "proc.event";

    /**
     * The proc connector's throughput unit: events delivered to listeners, which follows what each filter passes, so
     * two designs' rates of it are not what they cost.
     */
    public static final String DELIVERED = "events delivered";
    /** Measure prefix: a listener's (or monitor's: {@code pidfd}, {@code proc-scan}) handling time over the run, ms. */
    public static final String BUSY = "proc.listener_busy.";
    /** Measure: one /proc scan's time, ms. */
    public static final String SCAN = "proc.scan";
    /** Name of the pidfd monitor's {@link #BUSY} measure. */
    public static final String PIDFD = "pidfd";
    /** Name of the /proc-scan monitor's {@link #BUSY} measure. */
    public static final String PROC_SCAN = "proc-scan";
    /** The monitors' names, which listeners may not take. */
    public static final Set<String> MONITORS = Set.of(PIDFD, PROC_SCAN);

    /** Copies the listeners, keeping their order. */
    public ProcEventsWorkload {
        listeners = Collections.unmodifiableMap(new LinkedHashMap<>(listeners));
    }

    @Override
    public List<String> measures() {
        List<String> m = new ArrayList<>(List.of(EVENT, SCAN));
        for (String listener : listeners.keySet()) {
            m.add(BUSY + listener);
        }
        for (String monitor : MONITORS) {
            m.add(BUSY + monitor); // never a listener's name too: the parser refuses those names
        }
        return List.copyOf(m);
    }

    /** The proc connector and monitors and their netlink sockets: no netns, uevent or RCU key. */
    @Override
    public Set<String> usedModelKeys() {
        return Set.of("proc-monitor", "proc-connector", "netlink", "costs.proc");
    }

    @Override
    public DesignRunner runner(double scale) {
        return new ProcEventsRun(this, scale);
    }

    @Override
    public String shape(double scale) {
        long n = scaledProcesses(scale);
        return n + (n == 1 ? " process" : " processes") + ", listeners " + listeners.keySet();
    }

    /**
     * The event list the run generates up front (fork, exec, exit per process) and what each listener may
     * queue (at most its receive buffer's worth), times {@link PopulationBytes}'s sized figures.
     */
    @Override
    public long populationHeapBytes(double scale, int cpus) {
        long events = 3 * scaledProcesses(scale);
        return events * PopulationBytes.PROC_EVENT_BYTES
                + listeners.size()
                        * Math.min(events, PopulationBytes.PROC_QUEUE_MAX)
                        * PopulationBytes.PROC_QUEUED_BYTES;
    }

    /**
     * @param scale the run's {@code --scale}
     * @return processes at that scale, rounded, at least 1
     */
    public long scaledProcesses(double scale) {
        return Math.max(1, Math.round(processes * scale));
    }

    /** None: its proc connector runs without a NamespaceSupervisor, so no switch would act on it. */
    @Override
    public java.util.Set<org.netnslab.fault.FaultSwitch> faultSwitches() {
        return java.util.EnumSet.noneOf(org.netnslab.fault.FaultSwitch.class);
    }

    @Override
    public String faultRefusal(org.netnslab.fault.FaultSwitch f) {
        return "does not apply it (its proc connector runs without a NamespaceSupervisor, whose switches these are;"
                + " isolation-soak applies faults.proc-connector)";
    }

    /** A pidfd or /proc-scan monitor subscribes to no connector, so it has no event latency ({@link #EVENT}). */
    @Override
    public java.util.Optional<String> withoutComparedMeasure(org.netnslab.design.Design design) {
        ProcMonitor m = design.model().proc().monitor();
        return m == ProcMonitor.CONNECTOR
                ? java.util.Optional.empty()
                : java.util.Optional.of("its proc-monitor.kind is " + org.netnslab.settings.Setting.spell(m)
                        + ", which subscribes to no proc connector");
    }

    /**
     * A connector design records {@link #EVENT} and each listener's {@link #BUSY}; a pidfd one {@link #BUSY}{@code
     * pidfd}; a /proc-scan one {@link #SCAN} and {@link #BUSY}{@code proc-scan}.
     */
    @Override
    public java.util.Optional<String> withoutMeasure(org.netnslab.design.Design design, String measure) {
        ProcMonitor m = design.model().proc().monitor();
        List<String> recorded = switch (m) {
            case CONNECTOR -> {
                List<String> l = new ArrayList<>(List.of(EVENT));
                listeners.keySet().forEach(n -> l.add(BUSY + n));
                yield l;
            }
            case PIDFD -> List.of(BUSY + PIDFD);
            case PROC_SCAN -> List.of(SCAN, BUSY + PROC_SCAN);
        };
        return recorded.contains(measure)
                ? java.util.Optional.empty()
                : java.util.Optional.of("its proc-monitor.kind is " + org.netnslab.settings.Setting.spell(m)
                        + ", which records " + String.join(", ", recorded) + " only");
    }
}
