package org.netnslab.report;

import java.util.List;
import java.util.Map;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.MeasureSummary;
import org.netnslab.metrics.MinScale;
import org.netnslab.metrics.RatioInterval;
import org.netnslab.metrics.RunResult;
import org.netnslab.settings.HoconSyntax;

/**
 * The console summary of a run, rendered from a {@link RunRecord} only, so that a run prints the same summary as
 * {@code netns-lab report} does from the saved results: the {@link Verdict} first, then its evidence (the parts,
 * top to bottom: docs/reading-results.md). A read-back record's notes are not in it: the report command prints
 * them on stderr, once.
 */
public final class ConsoleReport {
    private ConsoleReport() {}

    /**
     * @param r the run
     * @return one line: execution mode, simulated machine, the run's wall time and, in virtual execution, the
     *     simulated time, engine events and events per second of the design runs' summed wall time (a lane's
     *     rate: with --jobs 2 the runs' walls add up to more than the run's)
     */
    public static String clocks(RunRecord r) {
        RunResult.ExecutionInfo e = r.execution();
        if (e == null) {
            return String.format("execution: not saved; wall %.2f s", r.wallSeconds());
        }
        RunResult.Clocks c = r.clocks();
        if (!e.isVirtual()) {
            return String.format("execution live: wall %.2f s (design runs %.2f s)", r.wallSeconds(), c.wallSeconds());
        }
        String cpus = e.sweep()
                ? "cpus sweep " + e.cpus()
                : e.cpus().get(0) + (e.cpus().get(0) == 1 ? " cpu" : " cpus");
        return String.format(
                        "execution virtual, %s, jitter %s, random-seed %d%s: wall %.2f s, simulated %.6f s,"
                                + " %,d events, %,.0f events per design-run wall s",
                        cpus,
                        e.jitter(),
                        e.randomSeed(),
                        machineExtras(e.scheduling()),
                        r.wallSeconds(),
                        c.simulatedSeconds(),
                        c.simulatedEvents(),
                        c.eventsPerWallSecond())
                // the wall holds the study's samples, the other clocks the replicates' design runs alone
                + (r.sensitivity() != null
                        ? " (simulated time and events: the replicates', not the study's samples)"
                        : "");
    }

    /**
     * A phase's time in seconds: two decimals, but three figures for a short one ("0.00 s" read as no time at all).
     *
     * @param s the time, s
     * @return e.g. {@code 5.25} or {@code 0.00513}
     */
    public static String seconds(double s) {
        return s > 0 && s < 0.1 ? String.format("%.3g", s) : String.format("%.2f", s);
    }

    /**
     * A throughput, whole from 100 a second, else to three significant digits (a churn's 7.38 against 7.86 lifecycles a
     * second would read 7 against 8); "-" for none (a counted phase of 0 s has no rate; result.json holds null).
     *
     * @param perSec operations a second, NaN for none
     * @return e.g. {@code 545,449} or {@code 7.86}
     */
    public static String rate(double perSec) {
        if (!Double.isFinite(perSec)) {
            return "-";
        }
        return Math.abs(perSec) >= 99.95 || perSec == 0
                ? String.format("%,.0f", perSec)
                : new java.math.BigDecimal(perSec)
                        .round(new java.math.MathContext(3))
                        .toPlainString();
    }

    /**
     * @return ", cold-switch ..." and ", host-background ..." where the run's machine charged them (result.json has
     *     them then), else ""
     */
    static String machineExtras(RunResult.SchedulingInfo s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        if (s.hasColdSwitch()) {
            b.append(String.format(
                    ", cold-switch base %d ns, evicted %d ns, cached-tasks %d",
                    s.coldSwitchBaseNanos(), s.coldSwitchEvictedNanos(), s.coldSwitchCachedTasks()));
        }
        if (s.hasHostBackground()) {
            b.append(String.format(
                    ", host-background %d ns a second a netns, doubling-netns %d, every %d ms",
                    s.hostBackgroundPerNetnsNanos(),
                    s.hostBackgroundDoublingNetns(),
                    s.hostBackgroundPeriodNanos() / 1_000_000));
        }
        return b.toString();
    }

    /**
     * @param r the run
     * @return the text to print: the summary, the overrides the run was made with (the description does not show
     *     them) and the sensitivity study's section, each line ended
     */
    public static String render(RunRecord r) {
        StringBuilder sb = new StringBuilder(summary(r)).append('\n');
        if (!r.overrides().isEmpty()) {
            sb.append("overrides: ")
                    .append(String.join(
                            " ",
                            r.overrides().stream()
                                    .map(o -> HoconSyntax.cut(oneLine(o)))
                                    .toList()))
                    .append('\n');
        }
        if (r.sensitivity() != null) {
            sb.append('\n').append(SensitivityReport.console(r.sensitivity())).append('\n');
        }
        return sb.toString();
    }

    private static String summary(RunRecord r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%n%s%nseed: %s%n", header(r), seed(r)));
        sb.append(clocks(r)).append('\n');
        sb.append('\n').append(Verdict.of(r).render()); // the answer first: the tables below are its evidence
        Map<String, String> shared = DesignKeys.shared(r.designs());
        boolean arrivalBound = DesignsAlike.arrivalBound(r) != null;
        if (r.designs().size() > 1 && !shared.isEmpty()) {
            sb.append(String.format("%nthe same in every design: %s%n", DesignKeys.print(shared)));
        }
        int width = r.designs().stream() // the measure column as wide as its longest name, at least 22
                .flatMap(d -> d.measures().keySet().stream())
                .mapToInt(String::length)
                .reduce(22, Math::max);
        for (DesignRecord d : r.designs()) {
            Map<String, String> own = DesignKeys.differing(r.designs(), d);
            sb.append(String.format("%n== %s%s%n", d.name(), own.isEmpty() ? "" : "  " + DesignKeys.print(own)));
            sb.append(String.format(
                    "  %-" + width + "s %6s %10s %12s %12s %12s %12s %12s%n",
                    "measure",
                    "unit",
                    "count",
                    "mean",
                    "sd",
                    "p50",
                    "p99",
                    "max"));
            for (Map.Entry<String, MeasureSummary> e : d.measures().entrySet()) {
                MeasureSummary s = e.getValue();
                sb.append(String.format(
                        "  %-" + width + "s %6s %10d %12s %12s %12s %12s %12s%n",
                        e.getKey(),
                        s.unit(),
                        s.count(),
                        num(s.mean()),
                        num(s.sd()),
                        num(s.p50()),
                        num(s.p99()),
                        num(s.max())));
            }
            sb.append(String.format(
                    "  throughput %s %s/s%s, counted phase %s s%s%n",
                    rate(d.throughputPerSec()),
                    d.throughputUnit() == null ? "" : d.throughputUnit(),
                    arrivalBound ? " (arrival-bound: the same in every" + " design)" : "",
                    seconds(d.wallSeconds()),
                    r.repeat() > 1
                            ? " (means over the replicates; counts, invariants and counters are their sums, but counted times *_us,"
                                    + " rates and sizes their means)"
                            : ""));
            if (!d.counters().isEmpty()) {
                sb.append("  counters:");
                d.counters()
                        .forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
                sb.append('\n');
            }
            sb.append("  invariants:");
            d.invariants()
                    .forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
            sb.append('\n');
        }
        if (r.repeat() > 1) {
            sb.append(String.format("%n%d replicates (each design on a fresh model; order rotated):%n", r.repeat()));
            for (ReplicateRecord rep : r.replicates()) {
                sb.append(
                        String.format("  %2d  order: %s;  throughput/s:", rep.index(), String.join(", ", rep.order())));
                rep.designs().forEach(d -> sb.append(String.format(" %s %s", d.name(), rate(d.throughputPerSec()))));
                sb.append('\n');
            }
        }
        for (var ratio : r.ratios()) {
            sb.append(String.format(
                    "%n%s = %s%s; seed: %.2f",
                    ratio.name(), ratioOrNone(ratio.model()), derivedSpread(ratio), ratio.seed()));
        }
        if (!r.ratios().isEmpty()) {
            sb.append('\n');
        }
        if (!(r.execution() != null && r.execution().isVirtual()) // virtual time has no noise to warn of
                && r.designs().stream().anyMatch(d -> d.wallSeconds() < 2)) {
            sb.append(String.format("%nnote: a counted phase took under 2 s; at this scale JIT warm-up and scheduling"
                    + " noise dominate, so its rates (and any ratio between designs) can change from run to run. Raise --scale until every"
                    + " counted phase lasts a few seconds, and use --repeat 5 for intervals.%n"));
        }
        if (r.repeat() == 1 && !r.comparisons().isEmpty()) {
            sb.append(String.format("%n%s%n", oneRun()));
        }
        for (Comparison c : r.comparisons()) {
            if (!RatioVerdict.recorded(r, c)) {
                sb.append(String.format("%n%s%n", RatioVerdict.nothingRecorded(r, c)));
                continue;
            }
            Double seed = r.seedRatio(c.b());
            String unit = r.designs().stream() // the reader made sure both compared designs have the measure
                    .filter(d -> d.name().equals(c.a()))
                    .findFirst()
                    .map(d -> d.measures().get(c.measure()).unit())
                    .orElse("");
            sb.append(String.format(
                    "%n%s: %s / %s = %s (mean %s / %s %s%s)%s%n",
                    c.measure(),
                    c.b(),
                    c.a(),
                    ratioOrNone(c.ratioBOverA()),
                    num(c.meanB()),
                    num(c.meanA()),
                    unit,
                    c.replicates() > 1 ? ", means of " + c.replicates() + " replicate means" : ", one run",
                    seed == null ? "" : String.format("; seed: %.3f", seed)));
            if (!c.designsDifferInUsedKeys()) {
                sb.append("  WARNING: ").append(c.sameModelNote()).append('\n');
            }
            if (c.replicates() < 2) {
                continue;
            }
            sb.append(String.format("  %9s %14s %14s %8s%n", "replicate", c.a(), c.b(), "b / a"));
            List<Double> ratios = c.replicateRatios();
            for (int i = 0; i < c.replicates(); i++) {
                sb.append(String.format(
                        "  %9d %14s %14s %8s%n",
                        i + 1,
                        num(c.replicateMeansA().get(i)),
                        num(c.replicateMeansB().get(i)),
                        Double.isFinite(ratios.get(i)) ? String.format("%.3f", ratios.get(i)) : "-"));
            }
            sb.append(
                    ratios.stream().allMatch(Double::isFinite)
                            ? String.format(
                                    "  replicate ratios: %s%n  ratio 95%% interval: %s%n",
                                    spread(ratios), interval(c.ratioCi()))
                            : "  replicate ratios: none over them all (a baseline's mean of 0)\n");
            if (c.welch() != null) {
                sb.append("  Welch's test over the replicate means (n = ")
                        .append(c.replicates())
                        .append(" per design):");
                sb.append(c.welch().formatLikeR(c.a(), c.b(), unit));
            } else {
                sb.append("  no Welch test: the replicate means have no spread at all\n");
            }
        }
        return sb.toString();
    }

    /** What a run of one replicate prints instead of a test. */
    static String oneRun() {
        return "One run (repeat = 1): no significance can be claimed from one run. The ratios below are single"
                + " values; how far the next run's would be is unknown. Run with --repeat 5 or more for Welch's test and"
                + " a 95% interval over replicate means.";
    }

    /** @return min .. max and the sd of {@code values}, e.g. "0.71 .. 0.93 (sd 0.081)" */
    static String spread(List<Double> values) {
        DescriptiveStatistics s = new DescriptiveStatistics();
        values.forEach(s::addValue);
        return String.format("%.3f .. %.3f (sd %.3g)", s.getMin(), s.getMax(), s.getStandardDeviation());
    }

    /** @return the interval as "lo .. hi (Fieller, df d)", or why there is none */
    static String interval(RatioInterval ci) {
        if (ci == null) {
            return "none (one run)";
        }
        if (!ci.bounded()) {
            return "unbounded: the baseline's mean is not clearly non-zero over these replicates (Fieller)";
        }
        // replicates with no spread have no finite df (result.json writes null): say so, not "Infinity"
        String text = String.format(
                "%.3f .. %.3f (Fieller, %s)",
                ci.low(),
                ci.high(),
                Double.isFinite(ci.df())
                        ? String.format("Welch-Satterthwaite df %.3g", ci.df())
                        : "no spread over the replicates");
        // Fieller's interval holds 0 exactly when b's mean is not significantly above 0: a time's ratio cannot be
        // negative, so the negative part says only that b's replicates are too spread to bound it from below
        return ci.low() < 0
                ? text + "; below 0: the compared design's mean is not clearly above 0 over these replicates (read it"
                        + " as 0 .. " + String.format("%.3f", ci.high()) + ")"
                : text;
    }

    /** @return a ratio to 3 decimals, or why there is none: 0 / 0, or a denominator of 0 */
    static String ratioOrNone(double ratio) {
        return Double.isFinite(ratio)
                ? String.format("%.3f", ratio)
                : Double.isNaN(ratio) ? "no figure (0 / 0)" : "no figure (its denominator is 0)";
    }

    private static String derivedSpread(RunResult.DerivedRatio ratio) {
        if (ratio.replicates().size() < 2) {
            return " (one run)";
        }
        if (!Double.isFinite(ratio.model())) { // no figure: an interval over it says nothing
            return " (" + ratio.replicates().size() + " replicates)";
        }
        return String.format(
                " (mean of %d replicates; 95%% interval %.3f .. %.3f; replicates %s)",
                ratio.replicates().size(), ratio.ciLow(), ratio.ciHigh(), spread(ratio.replicates()));
    }

    /** @return the seed, or a word that it was not saved */
    static String seed(RunRecord r) {
        return r.seed() == null ? "(not saved with these results)" : oneLine(r.seed());
    }

    /** Two decimals for ordinary values, four significant digits for small ones (seconds of a short loop). */
    private static String num(double v) {
        if (Double.isNaN(v)) { // an sd of one value: none
            return "-";
        }
        return Math.abs(v) >= 10 || v == 0 ? String.format("%.2f", v) : String.format("%.4g", v);
    }

    /**
     * @param r the run
     * @return its first line: the scenario, its scale and its description; at a scale other than 1 or with
     *     {@code --set} overrides, the counts the run made (its description gives those of the file at scale 1) and
     *     then the description, marked as such
     */
    static String header(RunRecord r) {
        // on one line, control characters escaped: a description's ESC or line break would reach the terminal raw
        String d = r.description() == null
                ? null
                : oneLine(
                        r.description().length() <= LONGEST_DESCRIPTION
                                ? r.description()
                                : r.description().substring(0, LONGEST_DESCRIPTION) + "... ("
                                        + r.description().length()
                                        + " characters; whole in result.json and report.html)");
        if (!showsShape(r)) {
            return String.format("scenario %s (scale %s): %s", r.scenario(), MinScale.text(r.scale()), d);
        }
        return String.format(
                "scenario %s (scale %s): %s%n  %s: %s",
                r.scenario(),
                MinScale.text(r.scale()),
                r.shape(),
                r.overrides().isEmpty() ? "at scale 1" : AS_THE_FILE,
                d);
    }

    /**
     * @param s a scenario's text for the console (a description, a seed, an override)
     * @return it on one line: each line break and the indent around it as one space, other control characters
     *     escaped ({@code \x1b})
     */
    public static String oneLine(String s) {
        // a multi-line description ("""...""") reads as one sentence; what else would move the cursor is escaped
        return HoconSyntax.printable(s.strip().replaceAll("\\s*\\R\\s*", " "));
    }

    /** The most of a description the console's first line shows, characters (load-tests' are under 200). */
    static final int LONGEST_DESCRIPTION = 400;

    /** What marks the description when --set changed the counts run (report.html capitalises it). */
    static final String AS_THE_FILE = "as the file describes it at scale 1";

    /** @return whether the run's counts differ from those its description gives: scaled, or set by --set */
    static boolean showsShape(RunRecord r) {
        return r.shape() != null && (r.scale() != 1 || !r.overrides().isEmpty());
    }
}
