package org.netnslab.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.Losses;
import org.netnslab.metrics.RunResult;

/**
 * What a run found, said first: a sentence per comparison and per seed ratio across measures ({@link
 * RatioVerdict}), notes on designs the run could not tell apart ({@link DesignsAlike}), and a line for the
 * invariants. Below the scenario's minimum scale ({@link RunRecord#belowMinScale}) no seed figure is judged and
 * the invariants' line says that the scale is too small. The console, report.html and result.json take it from here, and {@code run --check} gates on {@link
 * #passes()}. How a ratio is judged against the seed's: docs/reading-results.md, "The verdict".
 */
public final class Verdict {
    /**
     * The tolerance of a design comparison's ratio against the seed's: the target the calibration table of
     * docs/virtual-time-and-calibration.md sets for the uevent seeds' ratios (+-0.05), which the seed's own
     * two-decimal figures (0.82, 0.90, 0.79) are given to.
     */
    public static final double DESIGN_TOLERANCE = 0.05;
    /** The tolerance of a seed ratio across measures: the calibration table's target for proc-filter (+-0.1). */
    public static final double DERIVED_TOLERANCE = 0.1;
    /** Where a disagreement is explained. */
    public static final String WHY =
            "docs/virtual-time-and-calibration.md#where-the-model-does-not-reach-a-seeds-figure";

    /**
     * @param r a run
     * @return where its disagreement with a seed figure is explained: a live run's figures are this JVM's threads and a
     *     sweep's counts are not the seed's machine, which the model's own shortfalls ({@link #WHY}) do not explain
     */
    public static String why(RunRecord r) {
        if (r.execution() != null && !r.execution().isVirtual()) {
            return "live figures are this JVM's threads and move between runs, the seed's a kernel's:"
                    + " docs/virtual-time-and-calibration.md#live-and-virtual-time";
        }
        return r.isSweep() && r.execution().seedCpus() == null // a sweep saved when every count was judged
                ? "the seed's figure is of its own machine, not of each count swept:"
                        + " docs/virtual-time-and-calibration.md#cpu-sweep"
                : WHY;
    }

    /**
     * One sentence of the verdict.
     *
     * @param text the sentence
     * @param agrees whether the model agrees with the seed's figure; null when there is none, or no verdict
     * @param tolerance the tolerance used; NaN without a seed figure
     */
    public record Line(String text, Boolean agrees, double tolerance) {}

    private final List<Line> checked;
    private final List<Line> lines;
    private final String invariants;
    private final boolean invariantsHold;

    private Verdict(List<Line> checked, List<Line> lines, String invariants, boolean invariantsHold) {
        this.checked = List.copyOf(checked);
        this.lines = List.copyOf(lines);
        this.invariants = invariants;
        this.invariantsHold = invariantsHold;
    }

    /** @return the sentences to show: comparisons (one per design across a sweep's counts), seed ratios, notes */
    public List<Line> lines() {
        return lines;
    }

    /**
     * @return one sentence per comparison, in the run's order, then one per seed ratio across measures: what
     *     result.json's comparisons and ratios carry and {@link #passes()} judges
     */
    public List<Line> checked() {
        return checked;
    }

    /** @return the invariants line */
    public String invariants() {
        return invariants;
    }

    /** @return false when a seed comparison disagrees or a design broke an invariant it must keep */
    public boolean passes() {
        return invariantsHold && checked.stream().noneMatch(l -> Boolean.FALSE.equals(l.agrees()));
    }

    /**
     * @param r a run
     * @return its verdict
     */
    public static Verdict of(RunRecord r) {
        List<Line> checked = new ArrayList<>();
        for (Comparison c : r.comparisons()) {
            checked.add(RatioVerdict.comparison(r, c));
        }
        List<Line> lines = new ArrayList<>(r.isSweep() ? SweepVerdict.byDesign(r, checked) : checked);
        for (Map.Entry<String, Double> seed : inDesignOrder(r)) { // a map's order is not the run's
            String d = seed.getKey();
            if (r.comparisons().stream().noneMatch(c -> c.b().equals(d) || c.b().startsWith(d + "@"))) {
                lines.add(new Line(
                        "The seed's ratio for " + d + " (" + seed(seed.getValue()) + ") is not judged: " + d
                                + " has no figure of a measure compared with the baseline's (it records "
                                + r.designs().stream()
                                        .filter(x -> x.name().equals(d))
                                        .findFirst()
                                        .map(x -> x.measures().isEmpty()
                                                ? "none"
                                                : String.join(", ", x.measures().keySet()))
                                        .orElse("nothing")
                                + "); derived-ratios compare designs across measures.",
                        null,
                        Double.NaN));
            }
        }
        for (RunResult.DerivedRatio d : r.ratios()) {
            checked.add(RatioVerdict.derived(r, d));
            lines.add(checked.get(checked.size() - 1));
        }
        lines.addAll(
                r.isSweep()
                        ? SweepVerdict.identical(DesignsAlike.identicalPairs(r, true))
                        : DesignsAlike.identicalPairs(r));
        String arrival = DesignsAlike.arrivalBound(r);
        if (arrival != null) {
            lines.add(new Line(arrival, null, Double.NaN));
        }
        String lost = losses(r);
        if (lost != null) {
            lines.add(new Line(lost, null, Double.NaN));
        }
        Map<String, List<String>> broken = new LinkedHashMap<>();
        boolean hold = true;
        List<String> parts = new ArrayList<>();
        for (DesignRecord d : r.designs()) {
            for (Map.Entry<String, Long> e : d.invariants().entrySet()) {
                if (e.getValue() == 0
                        || e.getKey().equals("enobufs")) { // ENOBUFS is the kernel telling of a loss: no break
                    continue;
                }
                String why = expected(d, e.getKey());
                hold &= why != null;
                broken.computeIfAbsent(d.name(), k -> new ArrayList<>()).add(e.getKey());
                parts.add(String.format(
                        Locale.ROOT,
                        "%s broke %s (%,d): %s",
                        d.name(),
                        e.getKey(),
                        e.getValue(),
                        why != null ? "expected, " + why : "NOT expected: this design must keep it"));
            }
        }
        for (DesignRecord d : r.designs()) {
            for (String c : SoakCriteria.broken(d)) {
                hold = false;
                parts.add(d.name() + " broke " + c + ": NOT expected: a pass criterion of the soak");
            }
        }
        String inv =
                (parts.isEmpty() ? "Invariants: all held in every design" : "Invariants: " + String.join("; ", parts))
                        // a hazard may not show at this scale; a break a design must keep is one all the same
                        + (r.belowMinScale()
                                ? "; " + r.minScale().noAllClear()
                                        + (hold ? "" : "; a break NOT expected fails at any scale")
                                : "")
                        + killedListeners(r)
                        + ".";
        return new Verdict(checked, lines, inv, hold);
    }

    /** @return the run's seed ratios in its designs' order, then any of a design it has no record of, by name */
    private static List<Map.Entry<String, Double>> inDesignOrder(RunRecord r) {
        List<String> order = r.designs().stream().map(DesignRecord::name).toList();
        return r.seedRatios().entrySet().stream()
                .sorted(java.util.Comparator.<Map.Entry<String, Double>>comparingInt(
                                e -> order.contains(e.getKey()) ? order.indexOf(e.getKey()) : order.size())
                        .thenComparing(Map.Entry::getKey))
                .toList();
    }

    /** @return why a design is expected to break an invariant, or null when it must keep it */
    static String expected(DesignRecord d, String invariant) {
        Map<String, String> s = d.strategies();
        if (invariant.equals("seqnum_out_of_order") && "lockless".equals(s.get("uevent.serialization"))) {
            return "the lockless design takes the SEQNUM before the broadcast, so two senders can deliver out of order";
        }
        if ((invariant.equals("seqnum_out_of_order") || invariant.equals("seqnum_duplicates"))
                && "per-netns-owner".equals(s.get("uevent.serialization"))
                && "per-netns".equals(s.get("uevent.seqnum-scope"))) {
            return "the 2018 patch as posted bumps a user-namespace-owned netns's one SEQNUM counter under two locks (its"
                    + " own for injections, the global one for its tagged kernel uevents), so two bumps can race: the review's"
                    + " \"your locking is wrong\"";
        }
        if (invariant.equals("seqnum_out_of_order")
                && "per-netns-owner".equals(s.get("uevent.serialization"))
                && "global".equals(s.get("uevent.seqnum-scope"))) {
            return "senders in two netns take SEQNUMs from the one global counter under their own netns's locks, so the"
                    + " kernel uevents every netns gets can arrive out of order (an atomic counter gives none twice)";
        }
        if ((invariant.equals("use_after_free") || invariant.equals("sock_inuse_sum"))
                && "exit-unsafe".equals(s.get("sock-inuse.free"))) {
            return "exit-unsafe frees the counter while an earlier exit's sockets still use it";
        }
        return null;
    }

    /** @return e.g. "14%" for 0.86 or 1.14; "0.4%" below 1% */
    public static String pct(double ratio) {
        double p = Math.abs(1 - ratio) * 100;
        return p < 1 || (p > 99 && p < 100)
                ? String.format(Locale.ROOT, "%.1f%%", p)
                : String.format(Locale.ROOT, "%.0f%%", p);
    }

    /** @return the verdict as console lines: a heading, one line per sentence, the invariants */
    public String render() {
        StringBuilder sb = new StringBuilder("verdict:\n");
        lines.forEach(l -> sb.append("  ").append(l.text()).append('\n'));
        sb.append("  ").append(invariants).append('\n');
        return sb.toString();
    }

    /**
     * @param seed a seed figure
     * @return it with 2 decimals, or 3 where the third is not 0 (0.80, 1.067), so a verdict shows the digits the
     *     ratio line does
     */
    static String seed(double seed) {
        if (!Double.isFinite(seed)) {
            return String.valueOf(seed);
        }
        java.math.BigDecimal d = java.math.BigDecimal.valueOf(seed)
                .setScale(3, java.math.RoundingMode.HALF_UP)
                .stripTrailingZeros();
        return (d.scale() < 2 ? d.setScale(2) : d).toPlainString();
    }

    /**
     * @return null, or the designs that lost work before their figures ({@link Losses}): their measures are over what
     *     was left, and a comparison with one that lost less compares unlike sets
     */
    private static String losses(RunRecord r) {
        List<String> lost = new ArrayList<>();
        for (DesignRecord d : r.designs()) {
            for (String counter : Losses.ALL) {
                Long n = d.counters().get(counter);
                if (n != null && n > 0) {
                    lost.add(String.format(Locale.ROOT, "%s %s %,d", d.name(), counter, n));
                }
            }
        }
        return lost.isEmpty()
                ? null
                : "Lost before the figures: " + String.join(", ", lost) + ". Those designs' measures are over what"
                        + " was left, so a comparison with a design that lost less compares unlike sets.";
    }

    /**
     * @return "" or, where the fault switch killed listeners, which designs and how many: the messages those did not
     *     read were not checked, so an invariant that held may not have been tested at all
     */
    private static String killedListeners(RunRecord r) {
        List<String> killed = new ArrayList<>();
        for (DesignRecord d : r.designs()) {
            Long n = d.counters().get(org.netnslab.metrics.LifecycleRecorder.LISTENERS_FAILED_BY_FAULT);
            if (n != null && n > 0) {
                killed.add(d.name() + " " + String.format(Locale.ROOT, "%,d", n));
            }
        }
        return killed.isEmpty()
                ? ""
                : "; listeners killed by faults.listener (" + String.join(", ", killed)
                        + ") read nothing after it, so their messages were not checked";
    }
}
