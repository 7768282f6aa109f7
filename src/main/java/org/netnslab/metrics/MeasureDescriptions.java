package org.netnslab.metrics;

import java.util.Map;
import java.util.Optional;

/**
 * What each measure times, from where to where, in the words result.json ({@code designs[].measures.NAME
 * .description}) and report.html (under each measure's heading) give a reader: a figure is only comparable with a
 * host's if both start and stop the clock at the same points.
 * The names are the workloads' measure constants (e.g. {@code UeventInjectionWorkload.TRANSACTION}); this layer
 * may not import them, so {@code MeasureDescriptionsTest} checks every one of them is here.
 */
public final class MeasureDescriptions {
    /** The prefix of the proc workload's per-listener busy-time measures ({@code proc.listener_busy.<listener>}). */
    private static final String BUSY_PREFIX = "proc.listener_busy.";

    private static final Map<String, String> TEXT = Map.ofEntries(
            Map.entry(
                    "uevent.transaction",
                    "one injected uevent, as its injector times it: from just before the sendmsg"
                            + " to just after the call returns to user space, once the message is on every listener queue of the"
                            + " netns (in virtual execution with machine.scheduler = fair: a preemption at the return is in it, the"
                            + " wait for a CPU before the call is not, the boundary the calibrate probes use; with fifo: the send's"
                            + " steps and their queueing; in live execution: the JVM's clock around the model's send)"),
            Map.entry(
                    "uevent.delivery",
                    "from an injector's send to a listener's receipt of that message (counted" + " phase only)"),
            Map.entry("soak.transaction", "an injection's send to its acknowledgement, permitted and refused alike"),
            Map.entry("soak.delivery", "an injection's send to its receipt by a reading (not stalled) listener"),
            Map.entry(
                    "netns.loop_wall",
                    "each unshare loop's whole run (simulated time in virtual execution, wall time"
                            + " in live), as a distribution over the loops (the seed's `time` of each loop)"),
            Map.entry(
                    "netns.create",
                    "copy_net_ns: the unshare(CLONE_NEWNET) request to the end of setup_net, lock and"
                            + " CPU waits included"),
            Map.entry(
                    "netns.cleanup",
                    "a netns's last put_net to its net_free (with netns.struct-net-free ="
                            + " next-cleanup, to the free at the next cleanup_net)"),
            Map.entry("netns.cleanup_batch", "netns dismantled per cleanup_net run (the batch taken off cleanup_list)"),
            Map.entry(
                    "netns.cleanup_run",
                    "one cleanup_net run: its batch taken off cleanup_list to the end of its" + " rcu_barrier"),
            Map.entry("scale.create", "a CreateNetns request to the end of its setup_net"),
            Map.entry("scale.cleanup", "a netns's last reference to its net_free"),
            Map.entry(
                    "scale.delivery",
                    "the untagged broadcast's and the tagged uevents' send to receipt by a" + " listener"),
            Map.entry(
                    "proc.event",
                    "a proc connector event's generation (fork, exec, exit) to a listener's receipt (connector"
                            + " listeners only)"),
            Map.entry("proc.scan", "one scan of /proc by a monitor that polls instead of listening"));

    private MeasureDescriptions() {}

    /**
     * @param measure a measure's name, as result.json keys it
     * @return what it times, or empty for a name this catalogue does not know
     */
    public static Optional<String> of(String measure) {
        if (measure.startsWith(BUSY_PREFIX)) {
            return Optional.of("the CPU time the proc listener or monitor '" + measure.substring(BUSY_PREFIX.length())
                    + "' spent handling events over the run (its recvmsg, wake-ups and handling, or its pidfd polls or /proc"
                    + " scans)");
        }
        return Optional.ofNullable(TEXT.get(measure));
    }
}
