package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.netnslab.design.Design;
import org.netnslab.netns.Costs;
import org.netnslab.netns.ModelSettings;
import org.netnslab.settings.ConfigProblem;

/**
 * A sensitivity study of the cost block: how robust each comparison's conclusion is when the costs are
 * off. Scenario block {@code sensitivity { samples = N, spread = 0.5, keys = [...], seed-band = 0.1 }} or
 * {@code run --sensitivity N}. Each of the N samples multiplies every varied cost ({@link #keys}, keys of
 * {@code model.costs}) by a factor in [1 - spread, 1 + spread], the same factor for every design (a design
 * keeps its own costs where its kernel code differs), and runs every design once more at it (one
 * replicate, seeded as the base run's first; every CPU count of a sweep).
 *
 * <p>The factors are a Latin hypercube over the keys (McKay, Beckman and Conover 1979): each key's range
 * is cut into N equal strata, every stratum is used by exactly one sample, strata are paired across keys
 * by independent random permutations, and each factor is drawn uniformly within its stratum. Seeded by
 * {@code random-seed}, so the same scenario gives the same samples. commons-math3 has no Latin hypercube
 * (only quasi-random sequences), hence this short one.
 *
 * @param samples N, 0 for no study
 * @param spread the largest relative change of a cost, 0..0.9 (0: every sample is the base run)
 * @param keys the costs varied, keys under {@code model.costs} (e.g. {@code uevent.send-inside}); empty: every
 *     cost of a group the workload uses ({@link org.netnslab.workload.Workload#usedModelKeys()})
 * @param seedBand a sample's ratio is "inside the seed's band" when it is within seed x (1 +- seedBand), 0..1
 */
public record Sensitivity(int samples, double spread, List<String> keys, double seedBand) {
    /** No study. */
    public static final Sensitivity NONE = new Sensitivity(0, 0.5, List.of(), 0.1);
    /** The most samples a study may ask for. */
    public static final int MAX_SAMPLES = 10_000;
    /** What each number of the block must be. */
    private static final java.util.Map<String, String> RANGES = java.util.Map.of(
            "samples", "must be in 0.." + MAX_SAMPLES,
            "spread", "must be in 0..0.9 (a factor stays > 0)",
            "seed-band", "must be in 0..1");

    /** The block's keys. */
    static final java.util.Set<String> BLOCK_KEYS = java.util.Set.of("samples", "spread", "keys", "seed-band");

    /** Copies the list and checks the ranges. */
    public Sensitivity {
        keys = List.copyOf(keys);
        if (samples < 0
                || samples > MAX_SAMPLES
                || !(spread >= 0 && spread <= 0.9)
                || !(seedBand >= 0 && seedBand <= 1)) {
            throw new IllegalArgumentException("sensitivity: samples 0.." + MAX_SAMPLES
                    + ", spread 0..0.9, seed-band 0..1;" + " got " + samples + ", " + spread + ", " + seedBand);
        }
        for (String k : keys) {
            if (!Costs.KEYS.contains(k)) {
                throw new IllegalArgumentException("sensitivity.keys: " + notVaried(k));
            }
        }
        if (new java.util.HashSet<>(keys).size() != keys.size()) { // one cost, two factors: one would not be applied
            throw new IllegalArgumentException("sensitivity.keys: a cost is listed twice: " + keys);
        }
    }

    /**
     * @param samples the study's samples (0: none)
     * @param execution how the run runs, or null when it was refused
     * @param designs the run's designs
     * @return why the run cannot have the study, or null when it can
     */
    static String refusal(int samples, org.netnslab.run.Execution execution, int designs) {
        if (samples == 0) {
            return null;
        }
        if (execution != null && !execution.isVirtual()) {
            return "needs execution = virtual: the costs it varies are charged in virtual execution only";
        }
        return designs < 2
                ? "needs two designs or more: it reports how each design's ratio to the baseline moves, and this run"
                        + " has " + designs
                : null;
    }

    /**
     * @param n samples
     * @return this study with {@code n} samples ({@code --sensitivity N})
     */
    public Sensitivity withSamples(int n) {
        return new Sensitivity(n, spread, keys, seedBand);
    }

    /**
     * Reads the scenario's {@code sensitivity} block.
     *
     * @param file the scenario file, for problems
     * @param block the block (null: none)
     * @param problems where problems go (file, line, key)
     * @return the study, {@link #NONE} when there is no block or it has a problem
     */
    static Sensitivity read(String file, Config block, List<ConfigProblem> problems) {
        if (block == null) {
            return NONE;
        }
        int before = problems.size();
        for (var e : block.root().entrySet()) {
            if (!BLOCK_KEYS.contains(e.getKey())) {
                problems.add(ConfigProblem.at(
                        e.getValue().origin(),
                        "sensitivity." + e.getKey(),
                        "unknown key; known: " + new java.util.TreeSet<>(BLOCK_KEYS)));
            }
        }
        int samples = 0;
        double spread = NONE.spread;
        double band = NONE.seedBand;
        List<String> keys = List.of();
        int typed = problems.size();
        for (String k : List.of("samples", "spread", "seed-band")) { // a number each, said with what was given
            if (block.hasPath(k) && block.getValue(k).valueType() != com.typesafe.config.ConfigValueType.NUMBER) {
                String text = block.getValue(k).unwrapped().toString().trim();
                problems.add(ConfigProblem.at(
                        block.getValue(k).origin(),
                        "sensitivity." + k,
                        text.matches("[-+]?\\d{19,}") // HOCON reads an integer beyond 64 bits as text: out of range
                                ? RANGES.get(k) + ", got " + text
                                : "must be a number, got "
                                        + org.netnslab.settings.HoconSyntax.shownAsNumber(block.getValue(k))));
            }
        }
        if (problems.size() > typed) {
            return NONE;
        }
        try {
            samples = block.hasPath("samples") ? block.getInt("samples") : 0;
            spread = block.hasPath("spread") ? block.getDouble("spread") : spread;
            band = block.hasPath("seed-band") ? block.getDouble("seed-band") : band;
            keys = block.hasPath("keys") ? block.getStringList("keys") : keys;
        } catch (ConfigException e) {
            problems.add(ConfigProblem.at(e.origin(), "sensitivity", org.netnslab.settings.HoconChecker.bare(e)));
            return NONE;
        }
        if (block.hasPath("samples") && block.getDouble("samples") != samples) { // getInt cuts 2.5 to 2
            problems.add(ConfigProblem.at(
                    block.getValue("samples").origin(),
                    "sensitivity.samples",
                    "must be a whole number, got " + block.getValue("samples").render()));
        }
        check(file, block, "samples", samples >= 0 && samples <= MAX_SAMPLES, RANGES.get("samples"), problems);
        check(file, block, "spread", spread >= 0 && spread <= 0.9, RANGES.get("spread"), problems);
        check(file, block, "seed-band", band >= 0 && band <= 1, RANGES.get("seed-band"), problems);
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String k : keys) {
            check(file, block, "keys", Costs.KEYS.contains(k), notVaried(k), problems);
            // each key gets a column of factors: a second column for one cost would never be applied
            check(file, block, "keys", seen.add(k), "'" + k + "' is listed twice", problems);
        }
        return problems.size() > before ? NONE : new Sensitivity(samples, spread, keys, band);
    }

    /** @return why {@code key}, not one of {@link Costs#KEYS}, cannot be varied: a calibrate fit, or no cost */
    private static String notVaried(String key) {
        return Costs.CALIBRATE_FITS.contains(key)
                ? "'" + key + "' is a cost calibrate fits, never varied by a study; vary one of " + Costs.KEYS
                : "unknown cost '" + key + "'; known: " + Costs.KEYS;
    }

    /**
     * Refuses a cost in {@code keys} that the workload never charges: varying it would vary nothing, and the study
     * would report the verdict as holding in every sample.
     *
     * @param s the study read
     * @param used the workload's model-key groups ({@code costs.uevent}, ...)
     * @param conf the scenario, for the keys' origin
     * @param problems where the problem goes
     */
    static void unusedKeys(Sensitivity s, java.util.Set<String> used, Config conf, List<ConfigProblem> problems) {
        List<String> charged = charged(used);
        List<String> unused = s.keys.stream().filter(k -> !charged.contains(k)).toList();
        if (!unused.isEmpty() && conf.hasPath("sensitivity.keys")) {
            problems.add(ConfigProblem.at(
                    conf.getValue("sensitivity.keys").origin(),
                    "sensitivity.keys",
                    unused + (unused.size() == 1 ? " is a cost" : " are costs") + " this workload never charges:"
                            + " varying it varies nothing; the costs it charges: " + charged));
        }
    }

    private static void check(
            String file, Config block, String key, boolean ok, String message, List<ConfigProblem> problems) {
        if (!ok) { // at the value's own origin: a line of the file, or the --set that gave it
            problems.add(
                    block.hasPath(key)
                            ? ConfigProblem.at(
                                    block.getValue(key).origin(),
                                    "sensitivity." + key,
                                    key.equals("keys") // its messages name the cost at fault
                                            ? message
                                            : message + ", got "
                                                    + block.getValue(key).render())
                            : new ConfigProblem(file, -1, "sensitivity." + key, message));
        }
    }

    /**
     * @param s the scenario
     * @return the costs varied: {@link #keys}, or every cost of a group the workload uses
     */
    public List<String> keysFor(Scenario s) {
        return keysFor(s.workload().usedModelKeys());
    }

    /** @return {@link #keys}, or every cost of a group in {@code used} */
    private List<String> keysFor(java.util.Set<String> used) {
        return keys.isEmpty() ? charged(used) : keys;
    }

    /** @return every cost of a group in {@code used} (the workload's model-key groups), in {@link Costs#KEYS} order */
    private static List<String> charged(java.util.Set<String> used) {
        return Costs.KEYS.stream()
                .filter(k ->
                        used.stream().anyMatch(g -> ("costs." + k).equals(g) || ("costs." + k).startsWith(g + ".")))
                .toList();
    }

    /**
     * The Latin hypercube: sample i's factor for key j.
     *
     * @param keyCount keys varied
     * @param randomSeed the scenario's {@code random-seed}
     * @return {@link #samples} rows of {@code keyCount} factors in [1 - spread, 1 + spread]
     */
    public double[][] factors(int keyCount, long randomSeed) {
        SplittableRandom random = new SplittableRandom(randomSeed);
        double[][] f = new double[samples][keyCount];
        for (int j = 0; j < keyCount; j++) {
            int[] strata = new int[samples];
            for (int i = 0; i < samples; i++) {
                strata[i] = i;
            }
            for (int i = samples - 1; i > 0; i--) { // Fisher-Yates
                int k = random.nextInt(i + 1);
                int t = strata[i];
                strata[i] = strata[k];
                strata[k] = t;
            }
            for (int i = 0; i < samples; i++) {
                double u = (strata[i] + random.nextDouble()) / samples; // uniform within the sample's stratum
                f[i][j] = 1 + spread * (2 * u - 1);
            }
        }
        return f;
    }

    /**
     * @param s the scenario
     * @return the designs at each sample: index 0 the scenario's own, index i its designs with sample i's costs
     */
    List<List<Design>> designs(Scenario s) {
        List<List<Design>> out = new ArrayList<>();
        out.add(s.designs());
        List<String> varied = keysFor(s);
        double[][] f = factors(varied.size(), s.execution().machine().randomSeed());
        for (double[] row : f) {
            List<Design> at = new ArrayList<>();
            for (Design d : s.designs()) {
                ModelSettings m = d.model();
                at.add(new Design(
                        d.name(),
                        new ModelSettings(
                                m.uevent(),
                                m.netns(),
                                m.sockInuse(),
                                m.rcu(),
                                m.proc(),
                                m.netlink(),
                                m.costs().scaled(k -> {
                                    int j = varied.indexOf(k);
                                    return j < 0 ? 1.0 : row[j];
                                }),
                                m.faults()),
                        d.others()));
            }
            out.add(at);
        }
        return out;
    }
}
