package org.netnslab.jmh;

import java.util.concurrent.TimeUnit;
import org.netnslab.proc.ProcEvent;
import org.netnslab.proc.ProcEvents;
import org.netnslab.proc.ProcFilter;
import org.netnslab.proc.ProcSubscription;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The proc connector's per-listener filter ({@link ProcFilter#delivers}, cn_filter in
 * drivers/connector/cn_proc.c, v6.6) as the broadcast of one event runs it: once per listener of
 * the CN_IDX_PROC group. Four listeners as in load-tests/proc-filter.conf's per-listener case: one
 * legacy (never subscribed: everything), one with every event, one NONZERO_EXIT, one FORK|EXEC; the
 * events cycle over FORK, EXEC, a clean EXIT and a non-zero EXIT.
 *
 * <p>Units: ns per filter decision ({@link #deliversPerListener}, one listener and one event), and
 * ns per event for the fan-out decision of all four listeners ({@link #broadcastDecision}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class ProcFilterBenchmark {
    private static final int EVENTS = 4;
    private static final int LISTENERS = 4;

    private ProcSubscription[] listeners;
    private ProcEvent[] events;
    private int next;

    /** The four listeners' subscriptions and the four events; checks the filter's answers. */
    @Setup
    public void setUp() {
        listeners = new ProcSubscription[] {
            null, // joined the group, never sent LISTEN
            new ProcSubscription(ProcEvents.MCAST_LISTEN, ProcEvents.ALL),
            new ProcSubscription(ProcEvents.MCAST_LISTEN, ProcEvents.NONZERO_EXIT),
            new ProcSubscription(ProcEvents.MCAST_LISTEN, ProcEvents.FORK | ProcEvents.EXEC),
        };
        events = new ProcEvent[] {
            new ProcEvent(ProcEvents.FORK, 0, 1, 0, 101, 101, 1, 0, 0),
            new ProcEvent(ProcEvents.EXEC, 1, 1, 0, 101, 101, 0, 0, 0),
            new ProcEvent(ProcEvents.EXIT, 0, 2, 0, 101, 101, 0, 0, 17),
            new ProcEvent(ProcEvents.EXIT, 1, 2, 0, 102, 102, 0, 9, 17),
        };
        // deliveries per event: FORK 3, EXEC 3, clean EXIT 2, non-zero EXIT 3
        int[] expected = {3, 3, 2, 3};
        for (int e = 0; e < EVENTS; e++) {
            next = e;
            int got = broadcastDecision();
            if (got != expected[e]) {
                throw new IllegalStateException(
                        "cn_filter: event " + events[e] + " reached " + got + " listeners, expected " + expected[e]);
            }
        }
        next = 0;
    }

    /** @return whether the next (listener, event) pair delivers; ns per decision */
    @Benchmark
    @OperationsPerInvocation(EVENTS * LISTENERS)
    public int deliversPerListener() {
        int delivered = 0;
        for (ProcEvent event : events) {
            for (ProcSubscription listener : listeners) {
                if (ProcFilter.delivers(listener, event)) {
                    delivered++;
                }
            }
        }
        return delivered;
    }

    /** @return how many of the four listeners the next event reaches; ns per event */
    @Benchmark
    public int broadcastDecision() {
        ProcEvent event = events[next++ & (EVENTS - 1)];
        int delivered = 0;
        for (ProcSubscription listener : listeners) {
            if (ProcFilter.delivers(listener, event)) {
                delivered++;
            }
        }
        return delivered;
    }
}
