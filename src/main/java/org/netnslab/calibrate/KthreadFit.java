package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.netnslab.calibrate.CostFit.Fitted;

/**
 * The kernel threads a process exit wakes, fitted on uevent_probe exit's kernel-thread times:
 * {@code costs.uevent.injector-exit-callbacks} (ksoftirqd/N: the exits' RCU callbacks),
 * {@code costs.uevent.injector-exit-vfree} (kworker/N: their stacks' delayed_vfree_work) and {@code
 * rcu.gp-kthread} (rcu_preempt's CPU per run). The line times each class over a quiet window before the children
 * (the machine's background) and from the first fork to a settling time after the last reap; the model's side is
 * {@link org.netnslab.rcu.ExitFrees} and {@link org.netnslab.rcu.RcuDomain}.
 */
final class KthreadFit {
    private KthreadFit() {}

    /**
     * Per line: a class's runs over the exits' window less its quiet rate of runs times that window, times its CPU per
     * run over the exits' window, over the children (per exit); the grace-period kthread's CPU per run over the exits'
     * window. The median over the lines. Runs, not CPU, are what the background is taken off: a kworker's runs over
     * 2000 exits stand well out of its quiet rate (115-189 against 30-50 in as long), its CPU does not (0.8-2 us an exit
     * against a background that moves by as much). NOT FITTED, where the exit line was fitted, when no exit line has
     * the figures (recorded before them, or a kernel without CONFIG_SCHED_INFO).
     *
     * @param lines the exit probe's lines
     * @param costs receives the costs
     * @param unfitted receives why not
     */
    static void fit(List<ObjectNode> lines, Map<String, Fitted> costs, Map<String, String> unfitted) {
        List<ObjectNode> timed =
                lines.stream().filter(l -> l.has("exits_window_ns")).toList();
        if (timed.isEmpty()) {
            if (!lines.isEmpty()) {
                String why = "no uevent_probe exit line has the kernel threads' times (recorded before the exit probe"
                        + " timed them, /proc/PID/schedstat unreadable, or no kernel thread visible in /proc: a PID namespace): the"
                        + " exits wake no kernel thread in the model";
                for (String key : List.of(CALLBACKS, VFREE, GP_KTHREAD)) {
                    unfitted.put(key, why);
                }
            }
            return;
        }
        int children = timed.get(0).path("children").asInt();
        double callbacks = CostFit.medianOf(
                timed.stream().mapToDouble(l -> perExit(l, "ksoftirqd")).toArray());
        double vfree = CostFit.medianOf(
                timed.stream().mapToDouble(l -> perExit(l, "kworker")).toArray());
        // a kernel without rcu_preempt or rcu_sched (e.g. an RCU_NOCB or Tiny RCU one) shows no run: nothing to fit
        double gp = CostFit.medianOf(timed.stream()
                .filter(l -> l.path("exits_rcu_gp_kthread_runs").asDouble() > 0)
                .mapToDouble(l -> l.path("exits_rcu_gp_kthread_ns").asDouble()
                        / l.path("exits_rcu_gp_kthread_runs").asDouble())
                .toArray());
        String from = timed.size() == 1
                ? String.format("uevent_probe exit (one line of %d children, /proc/PID/schedstat)", children)
                : String.format(
                        "uevent_probe exit (%d lines of %d children, /proc/PID/schedstat, medians)",
                        timed.size(), children);
        put(
                CALLBACKS,
                callbacks,
                "ksoftirqd",
                from + ": ksoftirqd/N's runs from the first fork to 200 ms after the"
                        + " last reap, less their rate over 200 ms before, times its CPU per run there, per exit (the exits' RCU"
                        + " callbacks: rcu_do_batch)",
                timed,
                costs,
                unfitted);
        put(
                VFREE,
                vfree,
                "kworker",
                from + ": kworker/N's runs over the same window, less their quiet rate, times"
                        + " its CPU per run there, per exit (delayed_vfree_work: the stacks thread_stack_free_rcu could not cache)",
                timed,
                costs,
                unfitted);
        if (Double.isNaN(gp)) {
            unfitted.put(
                    GP_KTHREAD,
                    from + ": no run of rcu_preempt or rcu_sched over the exits (no grace-period kthread"
                            + " of that name on this kernel)");
        } else {
            costs.put(
                    GP_KTHREAD,
                    new Fitted(
                            gp,
                            from + ": rcu_preempt's CPU per run over the same window (rcu_gp_kthread;"
                                    + " its force-quiescent-state scans included)",
                            timed.size(),
                            Double.NaN));
        }
    }

    /**
     * A class's cost per exit, or why not: when its runs over the exits do not stand out of its quiet rate (the median is
     * not above 0), the exits' work does not show against the machine's background at this many children (200 under
     * {@code --quick}); NOT FITTED then, with the first line's runs that say so, rather than a negative figure.
     *
     * @param cls the class as the line's fields name it ({@code kworker}, {@code ksoftirqd})
     */
    private static void put(
            String key,
            double perExit,
            String cls,
            String source,
            List<ObjectNode> timed,
            Map<String, Fitted> costs,
            Map<String, String> unfitted) {
        if (perExit > 0 || Double.isNaN(perExit)) {
            costs.put(key, new Fitted(perExit, source, timed.size(), Double.NaN));
            return;
        }
        ObjectNode l = timed.get(0);
        String thread = cls + "/N";
        unfitted.put(
                key,
                String.format(
                        "%s ran %d times over the %d exits' window, where its quiet rate gives %.0f: the exits' work does"
                                + " not stand out of the machine's background at %d children (a full calibrate runs 2000)"
                                + "; the exits wake no %s in the model",
                        thread,
                        l.path("exits_" + cls + "_runs").asLong(),
                        l.path("children").asLong(),
                        quietRuns(l, cls),
                        l.path("children").asLong(),
                        thread));
    }

    /** @return a class's runs over the exits' window less its quiet rate there, times its CPU per run, per child, ns */
    static double perExit(ObjectNode l, String cls) {
        double runs = l.path("exits_" + cls + "_runs").asDouble();
        double net = runs - quietRuns(l, cls);
        double perRun = runs > 0 ? l.path("exits_" + cls + "_ns").asDouble() / runs : 0;
        return net * perRun / l.path("children").asDouble() + 0.0; // + 0.0: no -0.0 when the thread never ran
    }

    /** @return the runs a class's quiet rate gives over the exits' window: the machine's background there */
    private static double quietRuns(ObjectNode l, String cls) {
        return l.path("quiet_" + cls + "_runs").asDouble()
                / l.path("quiet_window_ns").asDouble()
                * l.path("exits_window_ns").asDouble();
    }

    static final String CALLBACKS = "costs.uevent.injector-exit-callbacks";
    static final String VFREE = "costs.uevent.injector-exit-vfree";
    static final String GP_KTHREAD = "rcu.gp-kthread";
}
