package org.netnslab.workload.soak;

import java.time.Duration;
import java.util.List;
import org.netnslab.run.DesignRunner;
import org.netnslab.workload.Workload;

/**
 * The {@code isolation-soak} workload: rounds of netns owned at every level of a chain of nested user
 * namespaces, each with listeners (some stalled on small buffers), injections from tasks with and
 * without CAP_SYS_ADMIN over the netns's owner, tagged and untagged kernel uevents, while churn tasks
 * create and dismantle more netns (and publish their processes' proc events) throughout, for a wall
 * time; run with the fault switches on. Its pass criteria are invariants and counters (docs/scenarios.md).
 *
 * @param duration wall time per design at scale 1 ({@code workload.duration}), multiplied by {@code --scale}
 * @param usernsDepth user namespace levels below the initial one (each a child of the one above), 0..32
 * @param netnsPerLevel netns per round owned at each level, the initial one included
 * @param listenersPerNetns listeners that read as fast as they can, per netns
 * @param stalledPerNetns listeners that read one message and then nothing until the round's end, per netns
 * @param stalledRcvbuf the stalled listeners' SO_RCVBUFFORCE value, bytes (doubled, as the kernel does)
 * @param injectionsPerSender injections per round by each sender task (four kinds per netns: root of
 *     its owner, root of the owner's parent that created it, a task of the owner without capabilities,
 *     root of a child of the owner)
 * @param taggedPerNetns kernel uevents per round tagged for a network device of each netns
 * @param untaggedPerRound untagged kernel uevents per round (to every netns owned by the initial user namespace)
 * @param churnTasks tasks creating and dismantling netns throughout (each netns: a socket, a proc fork and exit event)
 */
public record IsolationSoakWorkload(
        Duration duration,
        int usernsDepth,
        int netnsPerLevel,
        int listenersPerNetns,
        int stalledPerNetns,
        int stalledRcvbuf,
        int injectionsPerSender,
        int taggedPerNetns,
        int untaggedPerRound,
        int churnTasks)
        implements Workload {

    /** Measure: an injection's send to its acknowledgement, ns (permitted and refused alike). */
    public static final String TRANSACTION = "soak.transaction";
    /** Measure: send to receipt by a reading (not stalled) listener, ns. */
    public static final String DELIVERY = "soak.delivery";

    @Override
    public List<String> measures() {
        return List.of(TRANSACTION, DELIVERY);
    }

    @Override
    public DesignRunner runner(double scale) {
        return new IsolationSoakRun(this, scale);
    }

    /** Its senders repeat a request that got EAGAIN: one that fails every request never ends. */
    @Override
    public String faultCountRefusal(org.netnslab.fault.FaultSwitch f, int every) {
        return f == org.netnslab.fault.FaultSwitch.NETNS_ACTOR && every == 1
                ? "would never end with it at 1: every uevent request fails with EAGAIN and its sender repeats it;"
                        + " use 2 or more (every Nth fails)"
                : null;
    }

    @Override
    public String shape(double scale) {
        return wallTime(scale).toMillis() / 1000.0 + " s of rounds of " + netnsPerRound() + " netns over "
                + (usernsDepth + 1) + " user namespace levels, " + churnTasks + " churn task(s)";
    }

    /** @return netns per round */
    public int netnsPerRound() {
        return (usernsDepth + 1) * netnsPerLevel;
    }

    /**
     * @param scale the run's {@code --scale}
     * @return the wall time of one design's soak at that scale, at least one round (1 ms)
     */
    public Duration wallTime(double scale) {
        return Duration.ofNanos(Math.max(1_000_000L, Math.round(duration.toNanos() * scale)));
    }
}
