package org.netnslab.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.netnslab.metrics.RatioDefinition;
import org.netnslab.settings.HoconChecker;

/**
 * What the seed reported, as a scenario declares it: {@code seed-ratios} (each design's mean over the
 * baseline's on the compared measure) and {@code derived-ratios} (any measure's mean over another's).
 * A seed ratio of the baseline or of a design the scenario does not run would never be shown (so
 * {@code --check} could never fail on it): refused, unless a {@code --set} of {@code designs} or
 * {@code baseline} made it so; then, like a derived ratio whose design the run leaves out, it is
 * checked and dropped.
 */
final class SeedFiguresReader {
    private static final Set<String> RATIO_KEYS = Set.of("name", "numerator", "denominator", "seed");
    private static final Set<String> MEASURE_KEYS = Set.of("design", "measure");

    private final HoconChecker c;
    private final Set<String> knownDesigns;
    private final Set<String> runDesigns;
    private final Set<String> measures;
    private final String baseline;
    private final boolean designsBySet;
    private final boolean baselineBySet;

    /**
     * @param c the scenario's checker
     * @param knownDesigns every design the scenario may name
     * @param runDesigns the designs this run runs
     * @param measures every measure the workload records, or null when the workload is invalid (measure
     *     names are then not checked)
     * @param baseline the design the others are compared with, or null when the designs are invalid
     * @param designsBySet whether a {@code --set} gave {@code designs}
     * @param baselineBySet whether a {@code --set} gave the baseline (its key, or the designs it defaults from)
     */
    SeedFiguresReader(
            HoconChecker c,
            Set<String> knownDesigns,
            Set<String> runDesigns,
            Set<String> measures,
            String baseline,
            boolean designsBySet,
            boolean baselineBySet) {
        this.c = c;
        this.knownDesigns = knownDesigns;
        this.runDesigns = runDesigns;
        this.measures = measures;
        this.baseline = baseline;
        this.designsBySet = designsBySet;
        this.baselineBySet = baselineBySet;
    }

    /** A design name HOCON read as nested keys, and the value at their end, as written. */
    private record Dotted(String name, String value) {}

    /**
     * @return the known design an unquoted dotted key stands for ({@code kernel-4.18 = 0.5} reads as {@code kernel-4
     *     { 18 = 0.5 }}), with its value; or null
     */
    private Dotted dotted(String name, com.typesafe.config.ConfigValue v) {
        while (v instanceof ConfigObject o && o.size() == 1) {
            String k = o.keySet().iterator().next();
            name = name + "." + k;
            v = o.get(k);
        }
        return knownDesigns.contains(name)
                ? new Dotted(name, v.render(com.typesafe.config.ConfigRenderOptions.concise()))
                : null;
    }

    /** @return {@code seed-ratios} of the designs run, by design */
    Map<String, Double> seedRatios() {
        Map<String, Double> out = new LinkedHashMap<>();
        if (!c.conf().hasPath("seed-ratios")) {
            return out;
        }
        ConfigObject ratios = c.object("seed-ratios");
        if (ratios == null) {
            return out;
        }
        for (String design : ratios.keySet()) {
            String path = "seed-ratios." + ConfigUtil.joinPath(design);
            if (!knownDesigns.contains(design)) {
                Dotted dotted = dotted(design, ratios.get(design));
                c.problem(
                        path,
                        dotted != null
                                ? "HOCON read an unquoted '" + dotted.name() + "' as nested keys: a design name with a"
                                        + " dot must be quoted: \"" + dotted.name() + "\" = " + dotted.value()
                                : "'" + design + "' is not a known design " + new TreeSet<>(knownDesigns));
                continue;
            }
            Double ratio = c.positive(path, "the seed's ratio of this design's mean over the baseline's");
            if (design.equals(baseline) && !baselineBySet) {
                c.problem(
                        path,
                        "'" + design + "' is the baseline: a seed ratio is another design's mean over the"
                                + " baseline's, and the baseline is never compared with itself; remove it, or set"
                                + " baseline to the design the seed measured it against");
            } else if (baseline != null && !runDesigns.contains(design) && !designsBySet) {
                c.problem(
                        path,
                        "'" + design + "' is not one of the designs this scenario runs " + runDesigns
                                + ", so its ratio would never be shown; add it to designs or remove it");
            } else if (ratio != null && runDesigns.contains(design) && !design.equals(baseline)) {
                out.put(design, ratio);
            }
        }
        return out;
    }

    /**
     * A seed ratio compares a design's {@link org.netnslab.workload.Workload#comparedMeasure} with the baseline's: one
     * of a design that never records it could never be judged, and is refused.
     *
     * @param ratios {@link #seedRatios()}
     * @param designs the run's designs, by name
     * @param workload the scenario's workload, or null when it was refused
     */
    void refuseUnrecorded(
            Map<String, Double> ratios,
            Map<String, org.netnslab.design.Design> designs,
            org.netnslab.workload.Workload workload) {
        if (workload == null) {
            return;
        }
        java.util.Optional<String> base = baseline == null || !designs.containsKey(baseline)
                ? java.util.Optional.empty()
                : workload.withoutComparedMeasure(designs.get(baseline));
        for (String d : ratios.keySet()) {
            base.ifPresent(why -> c.problem(
                    "seed-ratios." + ConfigUtil.joinPath(d),
                    "the baseline '" + baseline + "' records no " + workload.comparedMeasure() + " (" + why + "), the"
                            + " measure a seed ratio compares; set baseline to a design that records it, or use a"
                            + " derived-ratios entry"));
            workload.withoutComparedMeasure(designs.get(d))
                    .ifPresent(why -> c.problem(
                            "seed-ratios." + ConfigUtil.joinPath(d),
                            "'" + d + "' records no " + workload.comparedMeasure() + " (" + why + "), the measure a"
                                    + " seed ratio compares with the baseline's; a derived-ratios entry compares"
                                    + " other measures"));
        }
    }

    /**
     * A derived ratio of a measure its design never records would never be shown, so it is refused, naming the side.
     *
     * @param r a ratio whose designs are both run
     * @param entry its entry in the file
     * @param at its key, e.g. {@code derived-ratios[2]}
     * @param designs the run's designs, by name
     * @param workload the scenario's workload, or null when it was refused
     */
    private void refuseUnrecorded(
            RatioDefinition r,
            ConfigValue entry,
            String at,
            Map<String, org.netnslab.design.Design> designs,
            org.netnslab.workload.Workload workload) {
        for (RatioDefinition.MeasureOf side : List.of(r.numerator(), r.denominator())) {
            org.netnslab.design.Design d = designs.get(side.design());
            if (workload != null && d != null) {
                workload.withoutMeasure(d, side.measure())
                        .ifPresent(why -> c.problemAt(
                                entry.origin(),
                                at + "." + (side == r.numerator() ? "numerator" : "denominator") + ".measure",
                                "'" + side.design() + "' never records " + side.measure() + " (" + why + "),"
                                        + " so the ratio would never be shown; name a measure it records"));
            }
        }
    }

    /**
     * @param designs the run's designs, by name
     * @param workload the scenario's workload, or null when it was refused
     * @return a warning when the baseline never records the compared measure, so that no design is compared with it
     *     (its derived ratios still are)
     */
    java.util.Optional<String> baselineWithoutComparedMeasure(
            Map<String, org.netnslab.design.Design> designs, org.netnslab.workload.Workload workload) {
        if (workload == null || baseline == null || designs.size() < 2 || !designs.containsKey(baseline)) {
            return java.util.Optional.empty();
        }
        return workload.withoutComparedMeasure(designs.get(baseline))
                .map(why -> "the baseline '" + baseline + "' records no " + workload.comparedMeasure() + " (" + why
                        + "), so no design is compared with it on that measure; set baseline to a design that records"
                        + " it for those comparisons (derived ratios are shown either way)");
    }

    /**
     * @param designs the run's designs, by name
     * @param workload the scenario's workload, or null when it was refused
     * @return {@code derived-ratios} whose designs are both run, in order
     */
    List<RatioDefinition> derivedRatios(
            Map<String, org.netnslab.design.Design> designs, org.netnslab.workload.Workload workload) {
        List<RatioDefinition> out = new ArrayList<>();
        if (!c.conf().hasPath("derived-ratios")) {
            return out;
        }
        ConfigValue v = c.conf().getValue("derived-ratios");
        if (v.valueType() != ConfigValueType.LIST) {
            c.problem(
                    "derived-ratios",
                    "must be a list of { name, numerator { design, measure }, denominator { design,"
                            + " measure }, seed }");
            return out;
        }
        ConfigList list = (ConfigList) v;
        Map<String, Integer> named = new HashMap<>(); // each name once: the console and result.json key by it
        for (int i = 0; i < list.size(); i++) {
            String at = "derived-ratios[" + i + "]";
            if (list.get(i).valueType() != ConfigValueType.OBJECT) {
                c.problemAt(list.get(i).origin(), at, "must be an object { name, numerator, denominator, seed }");
                continue;
            }
            RatioDefinition r = ratio(c.within((ConfigObject) list.get(i), at + "."));
            if (r != null && r.name().isBlank()) {
                c.problemAt(list.get(i).origin(), at + ".name", "must not be empty (the ratio's name on the console)");
                continue;
            }
            Integer first = r == null ? null : named.putIfAbsent(r.name(), i);
            if (first != null) {
                c.problemAt(
                        list.get(i).origin(),
                        at + ".name",
                        "\"" + r.name() + "\" is derived-ratios[" + first + "]'s name already; each name once");
                continue;
            }
            if (r == null) {
                continue;
            }
            String notRun = !runDesigns.contains(r.numerator().design())
                    ? "numerator"
                    : !runDesigns.contains(r.denominator().design()) ? "denominator" : null;
            if (notRun == null) {
                refuseUnrecorded(r, list.get(i), at, designs, workload);
                out.add(r);
            } else if (baseline != null && !designsBySet) { // a --set of designs may leave a ratio out on purpose
                String design = notRun.equals("numerator")
                        ? r.numerator().design()
                        : r.denominator().design();
                c.problemAt(
                        list.get(i).origin(),
                        at + "." + notRun + ".design",
                        "'" + design + "' is not one of the designs this scenario runs " + runDesigns
                                + ", so the ratio would never be shown; add it to designs or remove the ratio");
            }
        }
        return out;
    }

    /** @return the ratio, or null after a problem */
    private RatioDefinition ratio(HoconChecker e) {
        int before = c.problems().size();
        e.unknownKeys(e.conf().root(), RATIO_KEYS, "");
        String name = e.string("name", null);
        RatioDefinition.MeasureOf numerator = measure(e, "numerator");
        RatioDefinition.MeasureOf denominator = measure(e, "denominator");
        Double seed = e.positive("seed", "the seed's value of this ratio");
        if (seed == null && !e.conf().hasPath("seed")) {
            e.problem("seed", "missing required key (the seed's value of this ratio, a number > 0)");
        }
        return c.problems().size() == before ? new RatioDefinition(name, numerator, denominator, seed) : null;
    }

    private RatioDefinition.MeasureOf measure(HoconChecker e, String path) {
        if (e.object(path) == null) {
            return null;
        }
        e.unknownKeys(e.conf().getObject(path), MEASURE_KEYS, path + ".");
        String design = e.string(path + ".design", null);
        String measure = e.string(path + ".measure", null);
        if (design != null && !knownDesigns.contains(design)) {
            e.problem(path + ".design", "'" + design + "' is not a known design " + new TreeSet<>(knownDesigns));
        }
        if (measure != null && measures != null && !measures.contains(measure)) {
            e.problem(
                    path + ".measure",
                    "unknown measure '" + measure + "'; this workload records " + new TreeSet<>(measures));
        }
        return new RatioDefinition.MeasureOf(design, measure);
    }

    /**
     * A seed ratio is a design's mean over the file's baseline: over another baseline, which a {@code --set} of
     * {@code baseline} or {@code designs} made, it measures nothing. Said on stderr.
     *
     * @param seedRatios the run's seed ratios
     * @param baseline the run's baseline
     * @param fileBaseline the file's own ({@link FileOwnKeys#baseline}), or null
     * @return the seed ratios, or none when the baselines differ
     */
    static Map<String, Double> overFileBaseline(Map<String, Double> seedRatios, String baseline, String fileBaseline) {
        if (fileBaseline == null || baseline == null || baseline.equals(fileBaseline) || seedRatios.isEmpty()) {
            return seedRatios;
        }
        System.err.println("netns-lab: warning: the baseline is " + baseline + " (--set), not " + fileBaseline
                + ", which the seed ratios " + seedRatios + " are over: they are not judged in this run");
        return Map.of();
    }
}
