package org.netnslab.report;

import static org.netnslab.report.Verdict.DERIVED_TOLERANCE;
import static org.netnslab.report.Verdict.DESIGN_TOLERANCE;
import static org.netnslab.report.Verdict.pct;

import java.util.List;
import java.util.Locale;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.RatioInterval;
import org.netnslab.metrics.RunResult;

/**
 * The verdict's sentence for one ratio, a design comparison or a seed ratio across measures: what the model found
 * and, with the seed's figure, whether it AGREES within the tolerance (the rule: docs/reading-results.md, "The
 * verdict"); below the scenario's minimum scale, that the scale is too small to compare.
 */
final class RatioVerdict {
    private RatioVerdict() {}

    /** @return the sentence for a comparison, with its agreement when the scenario has the seed's ratio */
    static Verdict.Line comparison(RunRecord r, Comparison c) {
        String unit = r.designs().stream()
                .filter(d -> d.measures().containsKey(c.measure()))
                .findFirst()
                .map(d -> d.measures().get(c.measure()).unit())
                .orElse("");
        double ratio = c.ratioBOverA();
        if (!recorded(r, c)) { // 0 / 0: no figure to compare, and no claim that the two designs are alike
            return new Verdict.Line(nothingRecorded(r, c) + ".", null, Double.NaN);
        }
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
        } else { // replicates that cannot name a winner: where the mean came out, not that a design cut it
            boolean none = noWinner(c);
            b.append(String.format(
                    Locale.ROOT,
                    none
                            ? "%1$s's mean %2$s came out %3$s %4$s %5$s's (%6$s vs %7$s %8$s, lower is better)"
                            : "%1$s %9$s the mean %2$s %3$s against %5$s (%6$s vs %7$s %8$s, lower is better)",
                    c.b(),
                    c.measure(),
                    pct(ratio),
                    ratio < 1 ? "below" : "above",
                    c.a(),
                    num(c.meanB()),
                    num(c.meanA()),
                    unit,
                    ratio < 1 ? "cuts" : "raises"));
            if (ratio > 1 && !none) {
                b.append(": ").append(c.a()).append(" wins");
            }
        }
        b.append(ThroughputAgainst.note(r, c, same ? null : ratio < 1));
        if (!same) {
            b.append(mostlyZero(r, c));
        }
        RatioInterval ci = c.ratioCi();
        if (c.replicates() > 1 && Double.isNaN(ratio)) {
            b.append(" (both means are 0: no ratio over ")
                    .append(c.replicates())
                    .append(" replicates)");
        } else if (c.replicates() > 1) {
            b.append(
                    ci != null && ci.bounded()
                            ? String.format(
                                    Locale.ROOT,
                                    "; ratio %.3f, 95%% interval %.3f .. %.3f over" + " %d replicates%s",
                                    ratio,
                                    ci.low(),
                                    ci.high(),
                                    c.replicates(),
                                    holdsOne(c) && !same
                                            ? " (it holds 1: these replicates cannot tell the two apart)"
                                            : "")
                            : String.format(
                                    Locale.ROOT,
                                    "; ratio %.3f, interval unbounded over %d replicates (the baseline's mean is not"
                                            + " clearly above 0 over them: run more replicates)",
                                    ratio,
                                    c.replicates()));
        } else if (!same) {
            b.append(String.format(Locale.ROOT, "; ratio %.3f, one run", ratio));
        }
        Double seed = r.seedRatio(c.b());
        Double mentioned = RunRecord.seedRatio(r.seedRatios(), c.b(), r.isSweep());
        if (seed == null && mentioned != null && !r.isSweep()) { // a sweep's summary line says it once
            return new Verdict.Line(
                    b
                            + String.format(
                                    Locale.ROOT,
                                    "; seed %s: not judged (%s).",
                                    Verdict.seed(mentioned),
                                    notJudgedHere(r)),
                    null,
                    Double.NaN);
        }
        if (seed == null) {
            return new Verdict.Line(b + ".", null, Double.NaN);
        }
        if (r.belowMinScale()) {
            return new Verdict.Line(b + tooSmall(r, seed), null, DESIGN_TOLERANCE);
        }
        double lo = ratio;
        double hi = ratio;
        Boolean agrees;
        if (c.replicates() > 1 && ci != null) {
            lo = ci.low();
            hi = ci.high();
            agrees = ci.bounded() ? lo - DESIGN_TOLERANCE <= seed && seed <= hi + DESIGN_TOLERANCE : null;
            if (Boolean.TRUE.equals(agrees) && tooWide(lo, hi, DESIGN_TOLERANCE)) {
                b.append(wide(seed, DESIGN_TOLERANCE, virtual(r)));
                return new Verdict.Line(b.toString(), null, DESIGN_TOLERANCE);
            }
        } else if (oneLiveRun(r, c.replicates())) {
            return new Verdict.Line(b + oneLiveRun(seed), null, DESIGN_TOLERANCE);
        } else {
            agrees = Math.abs(ratio - seed) <= DESIGN_TOLERANCE;
        }
        b.append(seedPart(ratio, seed, agrees, DESIGN_TOLERANCE, c.replicates() > 1, Verdict.why(r)));
        return new Verdict.Line(b.toString(), agrees, DESIGN_TOLERANCE);
    }

    /**
     * @return a note naming the compared designs at least 99% of whose values of the measure are 0 (p99 0, mean above
     *     0): their means, and so the ratio, rest on a handful of values; else ""
     */
    private static String mostlyZero(RunRecord r, Comparison c) {
        List<String> names = r.designs().stream()
                .filter(d -> d.name().equals(c.a()) || d.name().equals(c.b()))
                .filter(d -> {
                    org.netnslab.metrics.MeasureSummary m = d.measures().get(c.measure());
                    return m != null && m.p99() == 0 && m.mean() > 0;
                })
                .map(DesignRecord::name)
                .toList();
        return names.isEmpty()
                ? ""
                : " (99% or more of " + String.join(" and ", names) + "'s " + c.measure() + " values are 0: the mean"
                        + " rests on a handful that are not; a larger --scale records more of them)";
    }

    /** @return whether both designs recorded at least one value of the compared measure */
    static boolean recorded(RunRecord r, Comparison c) {
        return unrecorded(r, c).isEmpty();
    }

    /** @return the compared designs that recorded no value of the compared measure */
    private static List<String> unrecorded(RunRecord r, Comparison c) {
        return r.designs().stream()
                .filter(d -> d.name().equals(c.a()) || d.name().equals(c.b()))
                .filter(d -> !d.measures().containsKey(c.measure())
                        || d.measures().get(c.measure()).count() == 0)
                .map(DesignRecord::name)
                .toList();
    }

    /** @return the sentence for a comparison with a design that recorded nothing of its measure (run by r) */
    static String nothingRecorded(RunRecord r, Comparison c) {
        return String.format(
                Locale.ROOT,
                "%s: %s recorded no %s (count 0), so %s / %s has no figure: every such request failed or none"
                        + " was made (see each design's counters%s)",
                c.measure(),
                String.join(" and ", unrecorded(r, c)),
                c.measure(),
                c.b(),
                c.a(),
                c.measure().startsWith("uevent.")
                        ? ": refused_eperm counts the injections the capability rule refused"
                        : "");
    }

    /**
     * An interval wider than twice the tolerance is too wide for "agrees" to say much: it would agree with seed
     * figures a whole tolerance apart on either side of the model's (two live replicates on 2 cores gave TC1's
     * ratio -0.45 .. 2.91): no verdict. One that misses the seed by more than the tolerance still disagrees.
     */
    private static boolean tooWide(double lo, double hi, double tol) {
        return hi - lo > 2 * tol;
    }

    /** The advice for an interval too wide: more replicates, and virtual execution unless the run is virtual. */
    private static String wide(double seed, double tol, boolean virtual) {
        return String.format(
                Locale.ROOT,
                "; seed %s: no verdict (the interval is wider than the +-%.2f the seed is"
                        + " checked within: run more replicates%s).",
                Verdict.seed(seed),
                tol,
                virtual ? "" : ", or virtual execution");
    }

    /** @return whether the run is known to have run in virtual execution */
    static boolean virtual(RunRecord r) {
        return r.execution() != null && r.execution().isVirtual();
    }

    private static String seedPart(
            double model, double seed, Boolean agrees, double tol, boolean interval, String why) {
        String t = String.format(Locale.ROOT, "+-%.2f", tol);
        if (agrees == null) {
            return String.format(Locale.ROOT, "; seed %s: no verdict (the interval is unbounded).", Verdict.seed(seed));
        }
        if (agrees) {
            return String.format(
                    Locale.ROOT,
                    "; seed: %s (%s): AGREES within %s%s.",
                    seed < 1 ? pct(seed) : "x" + fmt2(seed),
                    Verdict.seed(seed),
                    t,
                    interval ? " of the interval" : "");
        }
        return String.format(
                Locale.ROOT,
                "; model %.2f, seed %s: DISAGREES by more than %s%s (why: %s).",
                model,
                Verdict.seed(seed),
                t,
                interval ? " of the interval" : "",
                why);
    }

    /** @return why a count other than the scenario's own judges no seed figure: the figure is of one machine */
    private static String oneMachine(RunRecord r) {
        Integer n = r.execution().seedCpus();
        return n == null || n == 0
                ? "the scenario lists its CPU counts and the seed's figure is of one machine"
                : "the seed's figure is of one machine, the " + n + (n == 1 ? " CPU" : " CPUs") + " the scenario runs"
                        + " at";
    }

    /** @return why a run at another CPU count than the scenario's own does not judge its seed figure */
    static String notJudgedHere(RunRecord r) {
        Integer n = r.execution().seedCpus();
        return n == null || n == 0
                ? oneMachine(r)
                : oneMachine(r) + "; this run has " + r.execution().cpus().get(0) + " (--set machine.cpus)";
    }

    /** @return the verdict's end of a sentence whose seed figure this run's scale is too small to judge */
    private static String tooSmall(RunRecord r, double seed) {
        return String.format(
                Locale.ROOT, "; seed %s: %s.", Verdict.seed(seed), r.minScale().tooSmall());
    }

    /** @return the sentence for a seed ratio across measures ({@code derived-ratios}) */
    static Verdict.Line derived(RunRecord r, RunResult.DerivedRatio d) {
        boolean interval = d.replicates().size() > 1 && Double.isFinite(d.ciLow()) && Double.isFinite(d.ciHigh());
        double lo = interval ? d.ciLow() : d.model();
        double hi = interval ? d.ciHigh() : d.model();
        if (!Double.isFinite(d.seed())) {
            return new Verdict.Line(String.format(Locale.ROOT, "%s = %.3f.", d.name(), d.model()), null, Double.NaN);
        }
        if (!Double.isFinite(d.model())) { // 0 / 0 (e.g. a cost set to 0 on both sides): nothing to judge
            return new Verdict.Line(
                    d.name() + ": " + ConsoleReport.ratioOrNone(d.model()) + "; seed " + Verdict.seed(d.seed())
                            + ": not judged.",
                    null,
                    Double.NaN);
        }
        String text = String.format(
                Locale.ROOT,
                "%s = %.3f%s",
                d.name(),
                d.model(),
                interval ? String.format(Locale.ROOT, " (95%% interval %.3f .. %.3f)", d.ciLow(), d.ciHigh()) : "");
        if (r.belowMinScale()) {
            return new Verdict.Line(text + tooSmall(r, d.seed()), null, DERIVED_TOLERANCE);
        }
        int at = RunResult.ExecutionInfo.cpusOf(d.name()); // a sweep's ratio is named "<ratio> @<n>cpu"
        int cpus = r.isSweep() && at >= 0 ? at : r.cpusOf("");
        if (r.execution() != null && !r.execution().judgesSeedAt(cpus)) { // the seed's figure is of one machine
            return new Verdict.Line(
                    text
                            + String.format(
                                    Locale.ROOT,
                                    "; seed %s: not judged (%s).",
                                    Verdict.seed(d.seed()),
                                    r.isSweep() ? oneMachine(r) : notJudgedHere(r)),
                    null,
                    Double.NaN);
        }
        if (!interval && oneLiveRun(r, d.replicates().size())) {
            return new Verdict.Line(text + oneLiveRun(d.seed()), null, DERIVED_TOLERANCE);
        }
        boolean agrees = lo - DERIVED_TOLERANCE <= d.seed() && d.seed() <= hi + DERIVED_TOLERANCE;
        if (agrees && interval && tooWide(lo, hi, DERIVED_TOLERANCE)) {
            return new Verdict.Line(text + wide(d.seed(), DERIVED_TOLERANCE, virtual(r)), null, DERIVED_TOLERANCE);
        }
        text = text
                + (agrees
                        ? String.format(
                                Locale.ROOT,
                                "; seed %s: AGREES within +-%.2f.",
                                Verdict.seed(d.seed()),
                                DERIVED_TOLERANCE)
                        : String.format(
                                Locale.ROOT,
                                "; model %.2f, seed %s: DISAGREES by more than +-%.2f (why: %s).",
                                d.model(),
                                Verdict.seed(d.seed()),
                                DERIVED_TOLERANCE,
                                Verdict.why(r)));
        return new Verdict.Line(text, agrees, DERIVED_TOLERANCE);
    }

    /** @return whether the ratio's bounded interval over replicates holds 1: the run cannot tell the designs apart */
    private static boolean holdsOne(Comparison c) {
        RatioInterval ci = c.ratioCi();
        return c.replicates() > 1 && ci != null && ci.bounded() && ci.low() <= 1 && 1 <= ci.high();
    }

    /** @return whether replicates' interval cannot name a winner: it holds 1, or it is unbounded */
    static boolean noWinner(Comparison c) {
        RatioInterval ci = c.ratioCi();
        return holdsOne(c) || (c.replicates() > 1 && ci != null && !ci.bounded());
    }

    /** @return whether a seed figure would be judged on one live run, whose figures move from run to run */
    private static boolean oneLiveRun(RunRecord r, int replicates) {
        return replicates < 2 && r.execution() != null && !r.execution().isVirtual();
    }

    /** @return why a seed figure is not judged on one live run, and what judges it */
    private static String oneLiveRun(double seed) {
        return String.format(
                Locale.ROOT,
                "; seed %s: not judged on one live run (its figures are this JVM's threads and move from run to"
                        + " run: --repeat 5 or more judges it by the interval; docs/virtual-time-and-calibration.md"
                        + "#live-and-virtual-time).",
                Verdict.seed(seed));
    }

    static String fmt2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String num(double v) {
        return Math.abs(v) >= 10 || v == 0
                ? String.format(Locale.ROOT, "%.1f", v)
                : String.format(Locale.ROOT, "%.3g", v);
    }
}
