package org.netnslab.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.RatioInterval;
import org.netnslab.metrics.RunResult;

/**
 * What a run found, said first: one sentence per comparison (which design won, by how much, that lower is
 * better, and, where the scenario has the seed's figure, whether the model AGREES or DISAGREES with it), one
 * per seed ratio across measures, a note when every design had the same throughput (an arrival-bound load),
 * and one line for the invariants (which design broke which, and whether that design is expected to).
 * The console ({@link ConsoleReport}), report.html ({@link HtmlReport}) and result.json
 * ({@code agrees_with_seed}, {@code seed_tolerance}) all take it from here, and {@code run --check} gates on
 * {@link #passes()}.
 *
 * <p>Agreement: every measure compared is a time (lower is better). A comparison agrees with the seed when
 * its ratio is within {@link #DESIGN_TOLERANCE} of the seed's; with replicates, when the ratio's 95% interval
 * comes within the tolerance of it (the interval decides, not the mean alone). A seed ratio across measures
 * ({@code derived-ratios}) uses {@link #DERIVED_TOLERANCE}. An unbounded interval decides nothing: no verdict;
 * nor does one that holds the seed's figure but is wider than twice the tolerance (two live replicates on 2
 * cores gave TC1's ratio -0.45 .. 2.91), while one that misses it by more than the tolerance still disagrees.
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
            checked.add(comparison(r, c));
        }
        List<Line> lines = new ArrayList<>(r.isSweep() ? SweepVerdict.byDesign(r, checked) : checked);
        for (RunResult.DerivedRatio d : r.ratios()) {
            checked.add(derived(d));
            lines.add(checked.get(checked.size() - 1));
        }
        lines.addAll(r.isSweep() ? SweepVerdict.identical(identicalPairs(r)) : identicalPairs(r));
        String arrival = arrivalBound(r);
        if (arrival != null) {
            lines.add(new Line(arrival, null, Double.NaN));
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
        String inv = parts.isEmpty()
                ? "Invariants: all held in every design."
                : "Invariants: " + String.join("; ", parts) + ".";
        return new Verdict(checked, lines, inv, hold);
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
        if ((invariant.equals("use_after_free") || invariant.equals("sock_inuse_sum"))
                && "exit-unsafe".equals(s.get("sock-inuse.free"))) {
            return "exit-unsafe frees the counter while an earlier exit's sockets still use it";
        }
        return null;
    }

    private static Line comparison(RunRecord r, Comparison c) {
        String unit = r.designs().stream()
                .filter(d -> d.measures().containsKey(c.measure()))
                .findFirst()
                .map(d -> d.measures().get(c.measure()).unit())
                .orElse("");
        double ratio = c.ratioBOverA();
        StringBuilder b = new StringBuilder();
        boolean same = c.meanA() == c.meanB() || Math.abs(ratio - 1) < 0.0005;
        if (same) {
            b.append(String.format(
                    Locale.ROOT,
                    "%s and %s gave identical mean %s (%s %s)",
                    c.b(),
                    c.a(),
                    c.measure(),
                    num(c.meanB()),
                    unit));
            b.append(
                    c.designsDifferInUsedKeys()
                            ? ": they differ in keys this workload reads, but at this load no contended"
                                    + " lock or queue tells them apart"
                            : ": they differ in no model key this workload reads, so they are the"
                                    + " same model here");
        } else {
            b.append(String.format(
                    Locale.ROOT,
                    "%s %s the mean %s %s against %s (%s vs %s %s, lower is better)",
                    c.b(),
                    ratio < 1 ? "cuts" : "raises",
                    c.measure(),
                    pct(ratio),
                    c.a(),
                    num(c.meanB()),
                    num(c.meanA()),
                    unit));
            if (ratio > 1) {
                b.append(": ").append(c.a()).append(" wins");
            }
        }
        RatioInterval ci = c.ratioCi();
        if (c.replicates() > 1) {
            b.append(
                    ci != null && ci.bounded()
                            ? String.format(
                                    Locale.ROOT,
                                    "; ratio %.3f, 95%% interval %.3f .. %.3f over" + " %d replicates",
                                    ratio,
                                    ci.low(),
                                    ci.high(),
                                    c.replicates())
                            : String.format(
                                    Locale.ROOT,
                                    "; ratio %.3f, interval unbounded over %d replicates",
                                    ratio,
                                    c.replicates()));
        } else if (!same) {
            b.append(String.format(Locale.ROOT, "; ratio %.3f, one run", ratio));
        }
        Double seed = r.seedRatio(c.b());
        if (seed == null) {
            return new Line(b + ".", null, Double.NaN);
        }
        double lo = ratio;
        double hi = ratio;
        Boolean agrees;
        if (c.replicates() > 1 && ci != null) {
            lo = ci.low();
            hi = ci.high();
            agrees = ci.bounded() ? lo - DESIGN_TOLERANCE <= seed && seed <= hi + DESIGN_TOLERANCE : null;
            if (Boolean.TRUE.equals(agrees) && tooWide(lo, hi, DESIGN_TOLERANCE)) {
                b.append(wide(seed, DESIGN_TOLERANCE));
                return new Line(b.toString(), null, DESIGN_TOLERANCE);
            }
        } else {
            agrees = Math.abs(ratio - seed) <= DESIGN_TOLERANCE;
        }
        b.append(seedPart(ratio, seed, agrees, DESIGN_TOLERANCE, c.replicates() > 1));
        return new Line(b.toString(), agrees, DESIGN_TOLERANCE);
    }

    /**
     * An interval wider than twice the tolerance is too wide for "agrees" to say much: it would agree with seed
     * figures a whole tolerance apart on either side of the model's (two live replicates on 2 cores gave TC1's
     * ratio -0.45 .. 2.91): no verdict. One that misses the seed by more than the tolerance still disagrees.
     */
    private static boolean tooWide(double lo, double hi, double tol) {
        return hi - lo > 2 * tol;
    }

    private static String wide(double seed, double tol) {
        return String.format(
                Locale.ROOT,
                "; seed %.2f: no verdict (the interval is wider than the +-%.2f the seed is"
                        + " checked within: run more replicates, or virtual execution).",
                seed,
                tol);
    }

    private static String seedPart(double model, double seed, Boolean agrees, double tol, boolean interval) {
        String t = String.format(Locale.ROOT, "+-%.2f", tol);
        if (agrees == null) {
            return String.format(Locale.ROOT, "; seed %.2f: no verdict (the interval is unbounded).", seed);
        }
        if (agrees) {
            return String.format(
                    Locale.ROOT,
                    "; seed: %s (%.2f): AGREES within %s%s.",
                    seed < 1 ? pct(seed) : "x" + fmt2(seed),
                    seed,
                    t,
                    interval ? " of the interval" : "");
        }
        return String.format(
                Locale.ROOT,
                "; model %.2f, seed %.2f: DISAGREES by more than %s%s (why: %s).",
                model,
                seed,
                t,
                interval ? " of the interval" : "",
                WHY);
    }

    private static Line derived(RunResult.DerivedRatio d) {
        boolean interval = d.replicates().size() > 1 && Double.isFinite(d.ciLow()) && Double.isFinite(d.ciHigh());
        double lo = interval ? d.ciLow() : d.model();
        double hi = interval ? d.ciHigh() : d.model();
        if (!Double.isFinite(d.seed())) {
            return new Line(String.format(Locale.ROOT, "%s = %.3f.", d.name(), d.model()), null, Double.NaN);
        }
        boolean agrees = lo - DERIVED_TOLERANCE <= d.seed() && d.seed() <= hi + DERIVED_TOLERANCE;
        String text = String.format(
                Locale.ROOT,
                "%s = %.3f%s",
                d.name(),
                d.model(),
                interval ? String.format(Locale.ROOT, " (95%% interval %.3f .. %.3f)", d.ciLow(), d.ciHigh()) : "");
        if (agrees && interval && tooWide(lo, hi, DERIVED_TOLERANCE)) {
            return new Line(text + wide(d.seed(), DERIVED_TOLERANCE), null, DERIVED_TOLERANCE);
        }
        text = text
                + (agrees
                        ? String.format(Locale.ROOT, "; seed %.2f: AGREES within +-%.2f.", d.seed(), DERIVED_TOLERANCE)
                        : String.format(
                                Locale.ROOT,
                                "; model %.2f, seed %.2f: DISAGREES by more than +-%.2f (why: %s).",
                                d.model(),
                                d.seed(),
                                DERIVED_TOLERANCE,
                                WHY));
        return new Line(text, agrees, DERIVED_TOLERANCE);
    }

    /**
     * @return a sentence for each pair of designs, neither the baseline, whose every mean is the same (the
     *     baseline's pairs are said by their comparison)
     */
    static List<Line> identicalPairs(RunRecord r) {
        List<Line> out = new ArrayList<>();
        java.util.Set<String> compared = new java.util.HashSet<>();
        r.comparisons().forEach(c -> compared.add(c.a()));
        java.util.Set<String> sameAsBaseline = new java.util.HashSet<>(); // already said by their comparison
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
                        || x.measures().isEmpty()
                        || (sameAsBaseline.contains(x.name()) && sameAsBaseline.contains(y.name()))
                        || !x.measures().keySet().equals(y.measures().keySet())
                        || !x.measures().keySet().stream()
                                .allMatch(m -> x.measures().get(m).mean()
                                        == y.measures().get(m).mean())
                        || x.throughputPerSec() != y.throughputPerSec()) {
                    continue;
                }
                java.util.Set<String> differ = new java.util.HashSet<>();
                x.strategies().keySet().stream()
                        .filter(k ->
                                !x.strategies().get(k).equals(y.strategies().get(k)))
                        .forEach(differ::add);
                java.util.Set<String> locking = java.util.Set.of("uevent.serialization", "uevent.seqnum-scope");
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
                out.add(new Line(
                        x.name() + " and " + y.name() + " gave identical figures: at this load no path where they"
                                + " differ is contended" + why + ".",
                        null,
                        Double.NaN));
            }
        }
        return out;
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
        return String.format(
                Locale.ROOT,
                "Throughput is the same for every design (%,.0f %s/s): the load is"
                        + " arrival-bound (the injectors' schedule sets the rate, not the kernel design), so the designs differ in"
                        + " latency only.",
                max,
                unit == null ? "operations" : unit);
    }

    /** @return e.g. "14%" for 0.86 or 1.14; "0.4%" below 1% */
    public static String pct(double ratio) {
        double p = Math.abs(1 - ratio) * 100;
        return p < 1 || (p > 99 && p < 100)
                ? String.format(Locale.ROOT, "%.1f%%", p)
                : String.format(Locale.ROOT, "%.0f%%", p);
    }

    private static String fmt2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String num(double v) {
        return Math.abs(v) >= 10 || v == 0
                ? String.format(Locale.ROOT, "%.1f", v)
                : String.format(Locale.ROOT, "%.3g", v);
    }

    /** @return the verdict as console lines: a heading, one line per sentence, the invariants */
    public String render() {
        StringBuilder sb = new StringBuilder("verdict:\n");
        lines.forEach(l -> sb.append("  ").append(l.text()).append('\n'));
        sb.append("  ").append(invariants).append('\n');
        return sb.toString();
    }
}
