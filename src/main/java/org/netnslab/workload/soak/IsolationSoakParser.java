package org.netnslab.workload.soak;

import java.time.Duration;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.settings.HoconChecker;
import org.netnslab.settings.HoconDurations;
import org.netnslab.settings.HoconSyntax;
import org.netnslab.workload.WorkloadParser;

/**
 * Reads an {@code isolation-soak} workload: {@code duration} (wall time per design at scale 1, 1 s..7
 * days), {@code userns-depth}, {@code netns-per-level}, {@code listeners-per-netns},
 * {@code stalled-listeners-per-netns}, {@code stalled-rcvbuf}, {@code injections-per-sender},
 * {@code tagged-per-netns}, {@code untagged-per-round}, {@code churn-tasks}; and {@code execution = live}
 * (a soak is wall time).
 */
public final class IsolationSoakParser extends WorkloadParser {
    private static final Duration MAX_DURATION = Duration.ofDays(7);

    /** Reads {@code workload.type = isolation-soak}. */
    public IsolationSoakParser() {
        super(
                "isolation-soak",
                "duration",
                "userns-depth",
                "netns-per-level",
                "listeners-per-netns",
                "stalled-listeners-per-netns",
                "stalled-rcvbuf",
                "injections-per-sender",
                "tagged-per-netns",
                "untagged-per-round",
                "churn-tasks");
    }

    @Override
    protected IsolationSoakWorkload read(HoconChecker c, double scale) {
        Duration duration = Duration.ofSeconds(60);
        if (!c.conf().hasPath("workload.duration")) {
            c.problem("workload.duration", "missing: the soak's wall time per design at scale 1 (e.g. 300s)");
        } else {
            try {
                duration = HoconDurations.duration(c.conf(), "workload.duration");
                if (duration.compareTo(Duration.ofSeconds(1)) < 0 || duration.compareTo(MAX_DURATION) > 0) {
                    c.problem(
                            "workload.duration",
                            "must be a duration in 1s..7d, got "
                                    + HoconSyntax.shown(c.conf().getValue("workload.duration")));
                } else if (duration.toNanos() * scale > MAX_DURATION.toNanos()) { // as the injection counts' check
                    c.problem(
                            "workload.duration",
                            "times --scale " + org.netnslab.metrics.MinScale.text(scale)
                                    + " exceeds 7d of wall time per design (the soak runs in real" + " time)");
                }
            } catch (com.typesafe.config.ConfigException e) {
                c.problem("workload.duration", "must be a duration (e.g. 300s): " + HoconChecker.bare(e));
            }
        }
        long depth = c.integer("workload.userns-depth", 3L, 0, 32);
        long perLevel = c.integer("workload.netns-per-level", 2L, 1, 1000);
        long listeners = c.integer("workload.listeners-per-netns", 2L, 0, 64);
        long stalled = c.integer("workload.stalled-listeners-per-netns", 1L, 0, 64);
        long rcvbuf = c.integer("workload.stalled-rcvbuf", 8192L, SocketOptions.SOCK_MIN_RCVBUF / 2, 1L << 30);
        long injections = c.integer("workload.injections-per-sender", 20L, 0, 1_000_000);
        long tagged = c.integer("workload.tagged-per-netns", 10L, 0, 1_000_000);
        long untagged = c.integer("workload.untagged-per-round", 10L, 0, 1_000_000);
        long churn = c.integer("workload.churn-tasks", 2L, 0, 1000);
        if ((depth + 1) * perLevel > 10_000) {
            c.problem(
                    "workload.netns-per-level",
                    "(userns-depth + 1) x netns-per-level = " + (depth + 1) * perLevel
                            + " netns per round, more than 10000");
        }
        boolean live = c.conf().hasPath("execution")
                && c.conf().getValue("execution").unwrapped().equals("live");
        if (!live) { // its duration is wall time, and its stalled listeners wait on the runner thread
            c.problem("execution", "an isolation-soak workload runs in live execution only: set execution = live");
        }
        return new IsolationSoakWorkload(
                duration,
                (int) depth,
                (int) perLevel,
                (int) listeners,
                (int) stalled,
                (int) rcvbuf,
                (int) injections,
                (int) tagged,
                (int) untagged,
                (int) churn);
    }
}
