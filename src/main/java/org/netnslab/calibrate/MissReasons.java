package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What a missed prediction means ({@link Predictions.Row#whyMissed}): the mechanism the model lacks, or what the
 * host's own measurements show. Their figures are from calibrations on our 2-vCPU 6.18 VM (docs/calibrate.md). A
 * row's text is chosen by its direction.
 */
final class MissReasons {
    private MissReasons() {}

    /**
     * Why a prediction missed.
     *
     * @param code a few capitals the console's table shows in the row (e.g. TAIL)
     * @param legend what the code means, in a line under the table
     * @param text the whole reason, with the host's figures behind it: report.html and calibration.json
     */
    record Miss(String code, String legend, String text) {}

    static final Miss SEND_SPREAD = new Miss(
            "SPRD",
            "the host's contended sends spread more than the model's jitter, fitted on a lone send, lets them",
            "the host's contended sends spread more than a lone one: its p99 is about"
                    + " 2x its median at N=10 and 100 (1.7-2.4x) and 3-4x at N=1000, where the uncontended walk's is 1.2-1.5x,"
                    + " the spread the model's fitted jitter carries; a send that wakes its sleeping listener is one cause (the"
                    + " host's p99 follows how often its listeners sleep: over 129 runs of N=10, p99/p50 1.97 where they slept at"
                    + " under 1% of the sends, 4.48 at 1% or more, the model's sleeping at about 0.1%), and at N=1000 the slowest"
                    + " sends are not the injectors' first ones (18% of them in one run). Another, measured on our 2-vCPU VM at N=10 pinned to one CPU (p99"
                    + " still 1.9-2.2x the median with the listeners asleep at 0.1-0.2% of the sends): messages that wait in a"
                    + " listener's queue hold their skbs, so the sender's allocations run out of the CPU's slab every 16 objects"
                    + " (skbuff_head_cache, kmalloc-cg-1k: objs_per_slab 16) and take the slow path (___slab_alloc, allocate_slab:"
                    + " 2.8% of the CPU samples there, none in the fit set's walk, which frees each skb before the next send);"
                    + " but a walk holding 256 to 1000 skbs in its listener's queue raised its p99 by only 0.6-0.9 us, so most"
                    + " of the spread is still unexplained; the model has no allocator");
    static final Miss SEND_HIGH = new Miss(
            "WAIT",
            "the model's sends wait for a CPU inside the call more often than the host's",
            "the model's send takes longer than the host's at this percentile: its tasks"
                    + " wait for a CPU inside the send more often than the host's");
    static final Miss REORDER = new Miss(
            "ORDR",
            "the host's lockless windows are at times slow (their allocations); the model's vary only by its jitter",
            "the host reorders when one sender's lockless window (SEQNUM taken to skb queued) is slow while the other"
                    + " CPU's sender gets through its own; two senders meeting do not slow each other's sends, the window's own"
                    + " slow allocations do, and the model has them only as the jitter of its costs (uniform +-machine.jitter,"
                    + " fitted on a lone sender's p99 over its median)");
    static final Miss REORDER_HIGH = new Miss(
            "ORDH",
            "the model's senders' windows overlap more than the host's did in this load",
            "the model reorders more than the host here: its windows vary by the jitter fitted on the remote probe (a lone"
                    + " sender whose skbs the other CPU frees: its p99 over its median), a spread that this load's host"
                    + " senders did not show; the host's share also moves widely between runs of one load (0.004-0.077 at"
                    + " M=16 in one recording), and a share of 0 at the smallest M leaves its growth without a figure");
    static final Miss SCAN = new Miss(
            "SCAN",
            "the host's cost per /proc entry moves with how much of the task list stays in cache",
            "the model charges one cost per entry, the slope between the fit set's two scans"
                    + " (its own /proc, hot in cache, and 1000 sleeping processes more); the host's cost per entry depends on"
                    + " how much of the task list stays in cache, which moves with the PIDs and from run to run (10-14 us an"
                    + " entry on our 2-vCPU VM)");
    static final Miss WAKEUP = new Miss(
            "WAKR",
            "the host's listeners took another CPU than the model's: which one runs after the exiting child moves",
            "an exit wakes the listeners newest bind first; the first takes an idle CPU, the next waits behind the"
                    + " exiting child and pays what the exit leaves to the task after it (rq_clock_skip_update:"
                    + " costs.proc.exit-switch, fitted from an EXIT-only listener pinned beside its"
                    + " spawner against apart). A FORK wake-up that preempts the forking parent likewise charges the"
                    + " all-events listener the rest of fork, about 3 FORKs in 4 with three listeners and 1 in 10 with"
                    + " the fit's one; the model has no forking parent, so its exit / all runs about 0.05 high."
                    + " The probe binds its listeners in turn, all-events first, as the model"
                    + " does; which CPU each one lands on still moves from run to run on the host, and the model follows"
                    + " one placement. Recordings made while the probe bound them in a race have two modes (about 0.22"
                    + " and 0.33 on our 2-vCPU VM: the reverse order gives the higher), and one made before the probe"
                    + " pinned listeners has no exit-switch, so its exits charge none");
    static final Miss LIFECYCLE = new Miss(
            "BTCH",
            "a cleanup_net batch follows the loops' creation rate, which the model overestimates",
            "a cleanup_net batch is the creation rate times the run's length: the model's loops"
                    + " create faster than the host's (the loop-wall and lifecycles/s rows), and its kworker's exits cost it the"
                    + " serial loop's CPU per netns (the host's kworker spent 1.17-1.35x that in 40 parallel loops, over four"
                    + " calibrations on our 2-vCPU VM); the model also makes v6.18's three RTNL holds per batch (exit_rtnl,"
                    + " default_device_exit_batch, fib_net_exit_batch) one, and its RTNL shares come from a profile of this"
                    + " kernel, not a fit");
    static final Miss LOOPS = new Miss(
            "LOOP",
            "a lifecycle costs the host more CPU in the parallel loops than in the serial loop the model is fitted on",
            "a lifecycle costs the host more CPU in parallel loops than in the serial fit loop whose"
                    + " costs the model charges: the child and its parent 1.09-1.42x (means in 40 parallel loops against the"
                    + " fit's medians; four calibrations on our 2-vCPU VM), the cleanup_net kworker 1.17-1.35x a netns;"
                    + " the model's loops are CPU-bound on the serial figures, so they finish early; and the model's mutex has"
                    + " no optimistic spinning (2.8% of the host's CPU samples were in mutex_spin_on_owner during the loops)");
    static final Miss LIFECYCLE_RATE = new Miss(
            "RATE",
            "a lifecycle costs the host more CPU in the parallel loops than in the serial loop; counted to the last one's end",
            LOOPS.text() + "; this row counts the lifecycles over the time to the last loop's"
                    + " end, the loop-wall row takes the loops' mean, so one can miss while the other does not");
    static final Miss TAIL_MEAN = new Miss(
            "TAIL",
            "the host's mean is carried by a few sends preempted for tens to hundreds of ms",
            "the host's mean is carried by a few sends preempted for tens to hundreds of ms"
                    + " (far beyond its p99): an injector preempted in the middle of its sends waits behind every one that has not"
                    + " run. On our 2-vCPU VM most such preemptions were by kernel threads the injectors' exits wake (155 of 205 in"
                    + " a traced N=1000 run: kworker/N, rcu_preempt, ksoftirqd/N); the model has them (rcu.ExitFrees and the"
                    + " grace-period kthread's runs and force-quiescent-state scans, fitted on uevent_probe exit), but a recording"
                    + " without its kernel-thread times has none, and under root task groups they preempt nothing");
    static final Miss TAIL_MEAN_HIGH = new Miss(
            "TAILV",
            "the host's mean is carried by a few long preemptions, and how many moves from run to run",
            "the host's mean is carried by a few sends preempted for tens to hundreds of"
                    + " ms (far beyond its p99), and how many of those a run has moves from run to run; the model's mean is above"
                    + " this host run's. On our 2-vCPU VM the host's TC1 N=1000 mean (median of three runs) was 360 to 783 us over"
                    + " sixteen calibrations (median 590), its three runs within one calibration up to 2.8x apart");
    static final Miss TIMING = new Miss(
            "SLOW",
            "the model's send waits for a CPU inside the call longer than the host's",
            "the model's send includes more waiting for a CPU inside the call than the" + " host's");
    static final Miss THROUGHPUT = new Miss(
            "TPUT",
            "the host's CPUs did less of the load a second: its processes' CPU per message, or other work",
            "the host's processes spend more CPU per message under contention than the pair probe's one"
                    + " injector and listener (this probe line has no CPU clocks to say how much)");
    static final Miss INJECTOR_CPU = new Miss(
            "ICPU",
            "the host's sender costs more CPU with more processes about than the pair probe's",
            "the host's sender costs more CPU with more processes about: the pair probe's (one injector, one"
                    + " listener) costs what N=10 does, but 10 and 100 self-contained send-and-receive loops cost 1.06-1.18x and"
                    + " 1.16-1.35x one loop (more netns, sockets and stacks for the caches); the model charges the pair's cost"
                    + " per send");
    static final Miss INJECTOR_CPU_WALK = new Miss(
            "RELS",
            "the finished injectors' socket releases slow the host's sends; how many wait follows its scheduler",
            "the host's sender costs more with a thousand processes about than the"
                    + " fit set's lone sender walking as many sockets, most of it for the finished injectors' socket releases: each"
                    + " waits in netlink_table_grab while a broadcast walks, and every broadcast that ends with no other in flight"
                    + " walks the waiters on nl_table_wait (a try_to_wake_up on each one woken and not yet run); on our 2-vCPU VM,"
                    + " deferring the injectors' exits to the end of the load took 2.5 us of CPU off a send. The model has that"
                    + " wait (costs.uevent.table-waiter, fitted on uevent_probe waiters; 0 in a recording without its line), but how"
                    + " many releases wait at once follows when its scheduler, not the host's, lets a woken release run");
    static final Miss LISTENER_CPU = new Miss(
            "LCPU",
            "the host's listener reads skbs that waited in its queue: more CPU per message with more processes",
            "the host's listener reads skbs that waited in its queue while other tasks ran, and its cost per"
                    + " message grows with the processes about as the sender's does; the model charges the pair probe's recvmsg"
                    + " and handling, a task switch per wake-up, and what the walks since a message was queued evicted"
                    + " (costs.uevent.recv-evicted, from the walk lines: up to 0.4 us), not the rest of what other tasks"
                    + " evicted");

    /**
     * @param modelCpuPerMessage the model's injector and listener CPU per message, us; NaN where not known
     * @return why the host sends fewer per second, from its own CPU clocks and the machine's busy time: its processes'
     *     CPU per message against the model's where both are known (more, or about the same: the CPU then went to
     *     other work); the shares only when every run's busy time spans at least 20 /proc/stat ticks (it is counted in
     *     ticks of 10 ms)
     */
    static Miss throughput(List<ObjectNode> runs, double modelCpuPerMessage) {
        boolean coarse = runs.stream().anyMatch(r -> r.path("machine_busy_ns").asDouble() < 200e6);
        boolean busy = runs.stream()
                .allMatch(r -> r.path("machine_idle_ns").asDouble()
                        <= 0.05
                                * (r.path("machine_busy_ns").asDouble()
                                        + r.path("machine_idle_ns").asDouble()));
        double hostCpu = runs.stream()
                        .allMatch(r -> r.path("sends").asDouble() > 0
                                && r.path("received").asDouble() > 0)
                ? RunsFigure.of(
                                runs,
                                r -> (r.path("injector_cpu_ns").asDouble()
                                                        / r.path("sends").asDouble()
                                                + r.path("listener_cpu_ns").asDouble()
                                                        / r.path("received").asDouble())
                                        / 1e3)
                        .median()
                : Double.NaN;
        String head = (busy ? "the host's CPUs were busy the whole run, and its" : "the host's") + " injectors and"
                + " listeners " + cpuPerMessage(hostCpu, modelCpuPerMessage);
        if (coarse) {
            return throughput(head + "; the run is too short for /proc/stat's 10 ms ticks to say how much of the busy"
                    + " time was theirs");
        }
        RunsFigure own = RunsFigure.of(
                runs,
                r -> (r.path("injector_cpu_ns").asDouble()
                                + r.path("listener_cpu_ns").asDouble())
                        / Math.max(1, r.path("machine_busy_ns").asDouble()));
        if (!runs.stream().allMatch(r -> OUTSIDE.stream().allMatch(k -> r.has("window_" + k + "_ns")))) {
            return throughput(String.format(
                    java.util.Locale.ROOT,
                    "%s; the probe's own processes account for %.0f%% of the machine's"
                            + " busy time (median), the rest is kernel and other work (interrupts, kworkers, task switches,"
                            + " exits) the model does not run",
                    head,
                    100 * own.median()));
        }
        double init = outsideShare(runs, List.of("init"));
        double kdamond = outsideShare(runs, List.of("kdamond"));
        double kthreads = outsideShare(runs, ProbeLines.KTHREADS);
        return throughput(String.format(
                java.util.Locale.ROOT,
                "%s; of the machine's busy time (medians) the probe's own processes took %.0f%%, PID 1's threads"
                        + " (the host's init: on a VM, its agent) %.0f%%, DAMON's kdamond %.0f%%, the RCU grace-period"
                        + " kthread, ksoftirqd and the per-CPU kworkers %.0f%%: the model runs none of PID 1's or kdamond's"
                        + " work, which is the host's and not the kernel's netns work",
                head,
                100 * own.median(),
                100 * init,
                100 * kdamond,
                100 * kthreads));
    }

    /**
     * @param host the host's injector and listener CPU per message, us, or NaN
     * @param model the model's, us, or NaN
     * @return what the host's CPU per message says beside the model's: more (by over a tenth), about the same (the
     *     CPU then went to other work), or, where either is not known, that it is more than the pair probe's
     */
    private static String cpuPerMessage(double host, double model) {
        if (Double.isNaN(host) || Double.isNaN(model)) {
            return "spend more CPU per message under contention than the pair probe's (the CPU rows below)";
        }
        String compared = host > 1.1 * model
                ? "spend more CPU per message under contention than the model's (%.3g against %.3g us: the CPU rows"
                        + " below)"
                : "cost about what the model's do per message (%.3g against %.3g us: the CPU rows below), so its CPUs"
                        + " went to other work";
        return String.format(java.util.Locale.ROOT, compared, host, model);
    }

    /** @return the median over the runs of the named classes' summed window time over the machine's busy time */
    private static double outsideShare(List<ObjectNode> runs, List<String> classes) {
        return RunsFigure.of(
                        runs,
                        r -> classes.stream()
                                        .mapToDouble(k ->
                                                r.path("window_" + k + "_ns").asDouble())
                                        .sum()
                                / Math.max(1, r.path("machine_busy_ns").asDouble()))
                .median();
    }

    /**
     * The window's figures of the tasks outside the probe (uevent_probe's kthreads_read classes, in its field names
     * {@code window_<class>_ns}): the RCU grace-period kthread, ksoftirqd, the per-CPU kworkers, DAMON's kdamond and
     * PID 1's threads. A line of an older probe has only the first three, and the text then gives no split.
     */
    static final List<String> OUTSIDE = java.util.stream.Stream.concat(
                    ProbeLines.KTHREADS.stream(), java.util.stream.Stream.of("kdamond", "init"))
            .toList();

    /**
     * @param code a reason's code
     * @return its legend, "" for none
     */
    static String legend(String code) {
        for (Miss m : List.of(
                SEND_SPREAD,
                SEND_HIGH,
                REORDER,
                REORDER_HIGH,
                SCAN,
                WAKEUP,
                LIFECYCLE,
                LOOPS,
                LIFECYCLE_RATE,
                TAIL_MEAN,
                TAIL_MEAN_HIGH,
                TIMING,
                THROUGHPUT,
                INJECTOR_CPU,
                INJECTOR_CPU_WALK,
                LISTENER_CPU)) {
            if (m.code().equals(code)) {
                return m.legend();
            }
        }
        return "";
    }

    /** @return the throughput miss ({@link #THROUGHPUT}'s code) with this run's text */
    private static Miss throughput(String text) {
        return new Miss(THROUGHPUT.code(), THROUGHPUT.legend(), text);
    }
}
