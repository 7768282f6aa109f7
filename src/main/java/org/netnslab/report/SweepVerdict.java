package org.netnslab.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netnslab.metrics.Comparison;
import org.netnslab.metrics.RunResult;

/**
 * A CPU sweep's verdict, one sentence per design instead of one per design and count: the ratio against the
 * baseline at each simulated CPU count, and the counts where a seed figure disagrees.
 */
final class SweepVerdict {
    private SweepVerdict() {}

    /**
     * @param r a sweep
     * @param perComparison the verdict's sentence for each of its comparisons, in order
     * @return one sentence per compared design
     */
    static List<Verdict.Line> byDesign(RunRecord r, List<Verdict.Line> perComparison) {
        Map<String, List<Integer>> byDesign = new LinkedHashMap<>();
        for (int i = 0; i < r.comparisons().size(); i++) {
            byDesign.computeIfAbsent(
                            base(r.comparisons().get(i).b()) + " against "
                                    + base(r.comparisons().get(i).a()),
                            k -> new ArrayList<>())
                    .add(i);
        }
        List<Verdict.Line> out = new ArrayList<>();
        byDesign.forEach((pair, idx) -> {
            Comparison first = r.comparisons().get(idx.get(0));
            StringBuilder b = new StringBuilder(
                    pair + ", mean " + first.measure() + " (b / a, lower is better) by" + " simulated CPUs:");
            List<String> disagree = new ArrayList<>();
            List<String> undecided = new ArrayList<>(); // no verdict at that count (an interval unbounded or too wide)
            Boolean agrees = null;
            for (int i : idx) {
                Comparison c = r.comparisons().get(i);
                double ratio = c.ratioBOverA();
                b.append(String.format(
                        Locale.ROOT,
                        " %s: %.3f%s",
                        cpus(c.b()),
                        ratio,
                        Math.abs(ratio - 1) < 0.0005
                                ? " (same)"
                                : RatioVerdict.noWinner(c)
                                        ? " (no winner: its interval over " + c.replicates() + " replicates "
                                                + (c.ratioCi().bounded() ? "holds 1)" : "is unbounded)")
                                        : ratio < 1
                                                ? " (" + Verdict.pct(ratio) + " lower)"
                                                : " (" + Verdict.pct(ratio) + " higher)"));
                b.append(i == idx.get(idx.size() - 1) ? "" : ";");
                Verdict.Line l = perComparison.get(i);
                if (l.agrees() != null) {
                    agrees = (agrees == null || agrees) && l.agrees();
                    if (!l.agrees()) {
                        disagree.add(cpus(c.b()));
                    }
                } else if (r.seedRatio(c.b()) != null) { // judged there, but the interval decides nothing
                    undecided.add(cpus(c.b()));
                }
            }
            Double seed = judged(r, idx);
            Double mentioned = RunRecord.seedRatio(r.seedRatios(), first.b(), true);
            if (seed == null && mentioned != null && !r.belowMinScale()) {
                b.append(String.format(
                        Locale.ROOT, ". Seed %s: not judged (%s)", Verdict.seed(mentioned), notJudged(r)));
            } else if (seed != null && agrees != null) {
                b.append(String.format(
                        Locale.ROOT,
                        ". Seed %s%s: %s",
                        Verdict.seed(seed),
                        at(r),
                        disagree.isEmpty()
                                ? "AGREES within +-" + String.format(Locale.ROOT, "%.2f", Verdict.DESIGN_TOLERANCE)
                                        + (undecided.isEmpty()
                                                ? at(r).isEmpty() ? " at every count" : ""
                                                : " where it decides; no verdict at " + String.join(", ", undecided)
                                                        + cpus(undecided) + " (the interval unbounded or too wide)")
                                : "DISAGREES at " + String.join(", ", disagree) + cpus(disagree) + " (why: "
                                        + Verdict.why(r) + ")"));
            } else if (seed != null && !undecided.isEmpty() && !r.belowMinScale()) { // no count decides
                b.append(String.format(
                        Locale.ROOT,
                        ". Seed %s: no verdict at %s%s (the interval unbounded or too wide)",
                        Verdict.seed(seed),
                        String.join(", ", undecided),
                        cpus(undecided)));
            } else if (mentioned != null && r.belowMinScale()) {
                b.append(String.format(
                        Locale.ROOT,
                        ". Seed %s: %s",
                        Verdict.seed(mentioned),
                        r.minScale().tooSmall()));
            }
            out.add(new Verdict.Line(b + ".", agrees, seed == null ? Double.NaN : Verdict.DESIGN_TOLERANCE));
        });
        return out;
    }

    /** @return the identical-pair sentences of a sweep, one per pair of designs, naming the counts */
    static List<Verdict.Line> identical(List<Verdict.Line> perCount) {
        Map<String, List<String>> counts = new LinkedHashMap<>();
        Pattern pair = Pattern.compile("(\\S+)@(\\d+)cpu and (\\S+)@\\d+cpu gave identical figures.*");
        for (Verdict.Line l : perCount) {
            Matcher m = pair.matcher(l.text());
            if (m.matches()) {
                counts.computeIfAbsent(m.group(1) + " and " + m.group(3), k -> new ArrayList<>())
                        .add(m.group(2));
            }
        }
        List<Verdict.Line> out = new ArrayList<>();
        counts.forEach((p, at) -> out.add(new Verdict.Line(
                p + " gave identical figures at " + String.join(", ", at) + cpus(at)
                        + ": no path where they differ is contended there.",
                null,
                Double.NaN)));
        return out;
    }

    /** @return the seed ratio of the first of the comparisons {@code idx} judged against one, or null */
    private static Double judged(RunRecord r, List<Integer> idx) {
        for (int i : idx) {
            Double s = r.seedRatio(r.comparisons().get(i).b());
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    /** @return " at N CPUs (...)" naming the one count a sweep judged its seed at; "" where every count was */
    private static String at(RunRecord r) {
        Integer n = r.execution() == null ? null : r.execution().seedCpus();
        return n == null || n == 0
                ? ""
                : " at " + n + (n == 1 ? " CPU" : " CPUs")
                        + " (the count the scenario runs at without the sweep: the seed's figure is of one machine)";
    }

    /** @return why a sweep judged its seed at none of its counts */
    private static String notJudged(RunRecord r) {
        Integer n = r.execution() == null ? null : r.execution().seedCpus();
        return n == null || n == 0
                ? "the scenario lists its CPU counts itself and the seed's figure is of one machine; to judge it,"
                        + " write the file's machine.cpus as one count (a number, not a list) and sweep with --sweep"
                        + " machine.cpus=A,B"
                : "the seed's figure is of one machine, the " + n + (n == 1 ? " CPU" : " CPUs")
                        + " the scenario runs at without the sweep, a count not swept";
    }

    /** @return the design of a sweep's {@code <design>@<n>cpu} key, or {@code key} itself */
    static String base(String key) {
        return RunResult.ExecutionInfo.designOf(key);
    }

    private static String cpus(String key) {
        int n = RunResult.ExecutionInfo.cpusOf(key);
        return n < 0 ? "?" : String.valueOf(n);
    }

    /** @return " CPU" after the count 1 alone, else " CPUs" */
    private static String cpus(List<String> counts) {
        return counts.size() == 1 && counts.get(0).equals("1") ? " CPU" : " CPUs";
    }
}
