package org.netnslab.calibrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * {@link ProbeLines}' checks of one line kind's own figures beyond its fields' ranges: a skip's reason, counts that
 * must match. Stateless.
 */
final class KindChecks {
    private KindChecks() {}

    /**
     * @param kind the line's {@code probe/load}
     * @param l the line, its fields in range
     * @return why the line's own figures do not hold together, or null (also for a kind with no such check)
     */
    static String of(String kind, ObjectNode l) {
        return switch (kind) {
            case "uevent/waiters" -> waiters(l);
            case "uevent/stop" -> stopRounds(l);
            case "uevent/remote" -> remote(l);
            case "uevent/tc1" -> {
                String sends = sends(l, "injectors");
                yield sends != null ? sends : ends(l);
            }
            case "uevent/reorder" -> sends(l, "injectors_into_one_netns");
            default -> null;
        };
    }

    /**
     * @return why a TC1 or reorder line's sends are not its injectors times each one's sends (a line edited by hand
     *     would otherwise read as a ladder step of another size), or null
     */
    private static String sends(ObjectNode l, String injectors) {
        long want = l.path(injectors).asLong() * l.path("sends_per_injector").asLong();
        return l.path("sends").asLong() == want
                ? null
                : "sends must be " + injectors + " x sends_per_injector (" + want + "), got " + l.get("sends");
    }

    /** @return why a TC1 line's injectors ended by quarter do not add up to its injectors, or null (also without them) */
    private static String ends(ObjectNode l) {
        if (!l.has("injector_ends_q1")) {
            return null; // recorded before the probe counted them
        }
        long sum = 0;
        for (int q = 1; q <= 4; q++) {
            if (!l.has("injector_ends_q" + q)) {
                return "injector_ends_q" + q + " is missing beside injector_ends_q1";
            }
            sum += l.path("injector_ends_q" + q).asLong();
        }
        return sum == l.path("injectors").asLong()
                ? null
                : "injector_ends_q1..q4 must add up to its injectors (" + l.get("injectors") + "), got " + sum;
    }

    /** @return why a line's {@code skipped} does not say why the probe skipped it (a non-empty text), or null */
    private static String skipped(ObjectNode l) {
        return l.get("skipped").isTextual() && !l.get("skipped").asText().isBlank()
                ? null
                : "skipped must say why the probe skipped the line, got " + l.get("skipped");
    }

    /**
     * A remote line either says why the probe skipped it, and holds no figures, or holds the send's median and p99
     * (which fit machine.jitter), one timed send for each of its sends.
     */
    static String remote(ObjectNode l) {
        if (l.has("skipped")) {
            return l.has("send_p50_ns") ? "a skipped line holds no send figures, got send_p50_ns" : skipped(l);
        }
        for (ProbeLines.Field f : List.of(
                new ProbeLines.Field("send_count", 1, 1_000_000),
                new ProbeLines.Field("send_p50_ns", 1, ProbeLines.NS),
                new ProbeLines.Field("send_p99_ns", 1, ProbeLines.NS))) {
            String bad = ProbeLines.check(l.get(f.name()), f);
            if (bad != null) {
                return bad;
            }
        }
        return l.path("send_count").asDouble() == l.path("sends").asDouble()
                ? null
                : "send_count must be its sends (" + l.get("sends") + "), got " + l.get("send_count");
    }

    /**
     * A waiters line either says why the probe skipped it (a non-empty text) or holds the three figures the fit uses,
     * with no more closers queued than it started.
     */
    static String waiters(ObjectNode l) {
        if (l.has("skipped")) {
            return skipped(l);
        }
        for (ProbeLines.Field f : List.of(
                new ProbeLines.Field("before_send_p50_ns", 1, ProbeLines.NS),
                new ProbeLines.Field("queued_send_p50_ns", 1, ProbeLines.NS),
                new ProbeLines.Field("queued_waiters_mean", 0, l.path("closers").asDouble()))) {
            String bad = ProbeLines.check(l.get(f.name()), f);
            if (bad != null) {
                return bad + (f.name().equals("queued_waiters_mean") ? " (at most its closers)" : "");
            }
        }
        return null;
    }

    /** @return why a stop line's count of timed wake-ups is not its rounds, or null */
    static String stopRounds(ObjectNode l) {
        return l.path("stop_cpu_count").asLong() == l.path("rounds").asLong()
                ? null
                : "stop_cpu_count must be its rounds (" + l.get("rounds") + "), got " + l.get("stop_cpu_count");
    }
}
