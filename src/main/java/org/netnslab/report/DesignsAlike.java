package org.netnslab.report;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The verdict's notes on designs the run could not tell apart: pairs with identical figures, and a load where
 * every design had the same throughput (arrival-bound: the injectors' schedule sets the rate).
 */
final class DesignsAlike {
    private DesignsAlike() {}

    /**
     * @return a sentence for each pair of designs, neither the baseline, whose every mean is the same (the
     *     baseline's pairs are said by their comparison)
     */
    static List<Verdict.Line> identicalPairs(RunRecord r) {
        return identicalPairs(r, false);
    }

    /**
     * @param sweep whether {@code r} is a CPU sweep, whose summary names every count where a pair was identical,
     *     also where both were the same as the baseline
     * @return as {@link #identicalPairs(RunRecord)}
     */
    static List<Verdict.Line> identicalPairs(RunRecord r, boolean sweep) {
        List<Verdict.Line> out = new ArrayList<>();
        Set<String> compared = new HashSet<>();
        r.comparisons().forEach(c -> compared.add(c.a()));
        Set<String> sameAsBaseline = new HashSet<>(); // already said by their comparison
        r.comparisons().stream()
                .filter(c -> c.meanA() == c.meanB() || Math.abs(c.ratioBOverA() - 1) < 0.0005)
                .forEach(c -> sameAsBaseline.add(c.b()));
        List<DesignRecord> ds = r.designs();
        for (int i = 0; i < ds.size(); i++) {
            for (int j = i + 1; j < ds.size(); j++) {
                DesignRecord x = ds.get(i);
                DesignRecord y = ds.get(j);
                if (compared.contains(x.name())
                        || compared.contains(y.name())
                        || (sweep && !sameCount(x.name(), y.name())) // a sweep's pairs are at one count
                        || x.measures().isEmpty()
                        || (!sweep && sameAsBaseline.contains(x.name()) && sameAsBaseline.contains(y.name()))
                        || !x.measures().keySet().equals(y.measures().keySet())
                        || !x.measures().keySet().stream()
                                .allMatch(m -> x.measures().get(m).mean()
                                        == y.measures().get(m).mean())
                        || x.throughputPerSec() != y.throughputPerSec()) {
                    continue;
                }
                Set<String> differ = new HashSet<>();
                x.strategies().keySet().stream()
                        .filter(k ->
                                !x.strategies().get(k).equals(y.strategies().get(k)))
                        .forEach(differ::add);
                Set<String> locking = Set.of("uevent.serialization", "uevent.seqnum-scope");
                String why = "";
                if (!differ.isEmpty() && locking.containsAll(differ)) {
                    why =
                            " (with one injector per netns neither takes a contended lock: only the global one is shared)";
                } else if (differ.contains("uevent.listener-rcvbuf")
                        && differ.stream().allMatch(k -> locking.contains(k) || k.equals("uevent.listener-rcvbuf"))
                        && x.invariants().getOrDefault("enobufs", 0L) == 0
                        && y.invariants().getOrDefault("enobufs", 0L) == 0) {
                    why = " (no listener's receive queue filled in either: no ENOBUFS)";
                }
                out.add(new Verdict.Line(
                        x.name() + " and " + y.name() + " gave identical figures: at this load no path where they"
                                + " differ is contended" + why + ".",
                        null,
                        Double.NaN));
            }
        }
        return out;
    }

    /** @return whether two sweep design keys ({@code <design>@<n>cpu}) are at the same CPU count */
    private static boolean sameCount(String x, String y) {
        int ax = x.lastIndexOf('@');
        int ay = y.lastIndexOf('@');
        return ax >= 0 && ay >= 0 && x.substring(ax).equals(y.substring(ay));
    }

    /** @return a note when two or more designs had the same throughput but different latencies, else null */
    static String arrivalBound(RunRecord r) {
        if (r.designs().size() < 2 || r.comparisons().stream().allMatch(c -> c.meanA() == c.meanB())) {
            return null;
        }
        double min = r.designs().stream()
                .mapToDouble(DesignRecord::throughputPerSec)
                .min()
                .orElse(0);
        double max = r.designs().stream()
                .mapToDouble(DesignRecord::throughputPerSec)
                .max()
                .orElse(0);
        if (!(min > 0) || (max - min) / max > 0.001) {
            return null;
        }
        String unit = r.designs().get(0).throughputUnit();
        String lo = String.format(Locale.ROOT, "%,.0f", min);
        String hi = String.format(Locale.ROOT, "%,.0f", max);
        return String.format(
                Locale.ROOT,
                "Throughput is the same for every design (%s %s/s): the load is"
                        + " arrival-bound (the injectors' schedule sets the rate, not the kernel design), so the designs differ in"
                        + " latency only.",
                lo.equals(hi) ? hi : lo + " to " + hi, // within 0.1%: each design's own line gives its figure
                unit == null ? "operations" : unit);
    }
}
