package org.netnslab.metrics;

import java.time.Instant;
import java.util.List;

/**
 * A whole scenario run of N replicates ({@code --repeat N}): what result.json (schema 2) holds.
 * {@link #designs} are each design's results merged over the replicates (recorders merged,
 * invariants and counters summed, throughput and counted-phase time averaged; see
 * {@link DesignResult#merge}); {@link #replicates} keep each replicate's own results, which the
 * comparisons and derived ratios are computed over.
 *
 * @param scenario the scenario's name
 * @param description its one-line description
 * @param seed the kernel thread it reproduces
 * @param scale the {@code --scale} used
 * @param started when the run started
 * @param wallSeconds the whole run's wall time, s
 * @param designs each design's result, in the scenario's order
 * @param comparisons the comparisons between designs
 * @param seedRatios the seed's own ratios to print beside the model's, by design (may be empty)
 * @param overrides the {@code --set} arguments the run was made with (the description does not show them)
 * @param ratios figures derived across measures or designs, each beside the seed's (may be empty)
 * @param replicates each replicate's results, in the order they ran (at least one)
 * @param execution how the run ran: mode and simulated machine (null when not known)
 * @param shape the workload's size at the run's scale, e.g. {@code 1000 netns, 100 counted injections per netns
 *     (after 1 warm-up)}; null when not known
 * @param minScale the smallest {@code --scale} the scenario's verdict can judge at, or null for any
 */
public record RunResult(
        String scenario,
        String description,
        String seed,
        double scale,
        Instant started,
        double wallSeconds,
        List<DesignResult> designs,
        List<Comparison> comparisons,
        java.util.Map<String, Double> seedRatios,
        List<String> overrides,
        List<DerivedRatio> ratios,
        List<Replicate> replicates,
        ExecutionInfo execution,
        String shape,
        MinScale minScale) {

    /**
     * The simulated CPUs' scheduling, as result.json's {@code execution.machine} holds it.
     *
     * @param scheduler {@code fair} or {@code fifo}
     * @param preempt {@code none}, {@code voluntary} or {@code full}
     * @param hz timer ticks per second
     * @param baseSliceNanos the configured base slice, ns (0: derived from the CPU count)
     * @param contextSwitchNanos the context-switch cost, ns
     * @param taskGroup {@code root} or {@code session} ({@code machine.task-group}; {@code root} read from a file
     *     without it)
     * @param sliceNanos the base slice each simulated CPU count ran with, ns, in {@code cpus}'s order: the configured
     *     one, or the one derived from the count as Linux derives it (empty read from a file without it)
     * @param coldSwitchBaseNanos {@code machine.cold-switch.base}, ns (0 read from a file without it)
     * @param coldSwitchEvictedNanos {@code machine.cold-switch.evicted}, ns
     * @param coldSwitchCachedTasks {@code machine.cold-switch.cached-tasks}
     * @param hostBackgroundPeriodNanos {@code machine.host-background.period}, ns (0 read from a file without it)
     * @param hostBackgroundPerNetnsNanos {@code machine.host-background.per-netns}, ns of CPU a second a netns
     * @param hostBackgroundDoublingNetns {@code machine.host-background.doubling-netns}
     */
    public record SchedulingInfo(
            String scheduler,
            String preempt,
            int hz,
            long baseSliceNanos,
            long contextSwitchNanos,
            String taskGroup,
            List<Long> sliceNanos,
            long coldSwitchBaseNanos,
            long coldSwitchEvictedNanos,
            long coldSwitchCachedTasks,
            long hostBackgroundPeriodNanos,
            long hostBackgroundPerNetnsNanos,
            long hostBackgroundDoublingNetns) {
        /** Copies the list. */
        public SchedulingInfo {
            sliceNanos = List.copyOf(sliceNanos);
        }

        /** @return whether {@code machine.host-background} runs anything (result.json then holds it) */
        public boolean hasHostBackground() {
            return hostBackgroundPerNetnsNanos != 0;
        }

        /** @return whether {@code machine.cold-switch} adds anything (result.json then holds it) */
        public boolean hasColdSwitch() {
            return coldSwitchBaseNanos != 0 || coldSwitchEvictedNanos != 0;
        }

        /** The scheduling keys, as result.json's {@code execution.machine} names them. */
        private static final List<String> FIELDS =
                List.of("scheduler", "preempt", "hz", "base_slice_ns", "context_switch_ns", "task_group");

        /**
         * Which scheduling keys shape nothing in a run: in live execution all of them (the host's own scheduler runs
         * real threads), under fifo all but {@code scheduler} (steps, not tasks), else none.
         *
         * @param live live execution
         * @param fifo {@code machine.scheduler = fifo}
         * @return their result.json names (the scenario key is the name less {@code _ns}, with '-' for '_')
         */
        public static List<String> noEffect(boolean live, boolean fifo) {
            return live ? FIELDS : fifo ? FIELDS.subList(1, FIELDS.size()) : List.of();
        }
    }

    /**
     * How a run ran, as result.json's {@code execution} holds it.
     *
     * @param mode {@code live} or {@code virtual}
     * @param cpus the simulated CPU counts: one, or a sweep's counts in order
     * @param sweep true when every design ran at every count of {@code cpus}; its results are then keyed
     *     {@code <design>@<n>cpu} and compared with the baseline at the same count
     * @param jitter the costs' jitter (0..0.5)
     * @param randomSeed the random seed of replicate 1 (replicate i uses seed + i - 1)
     * @param scheduling the simulated CPUs' scheduling ({@code machine.scheduler}, {@code preempt}, {@code hz},
     *     {@code base-slice}, {@code context-switch}, {@code task-group}); null read from a file without it
     * @param dispatcher the threads a live run ran on; null in virtual execution or read from a file without it
     * @param seedCpus the count its seed figures are judged at ({@link org.netnslab.run.Execution#seedCpus()}); 0 at
     *     none; null in a file from before the key (every count then, as that run judged them)
     */
    public record ExecutionInfo(
            String mode,
            List<Integer> cpus,
            boolean sweep,
            double jitter,
            long randomSeed,
            SchedulingInfo scheduling,
            DispatcherInfo dispatcher,
            Integer seedCpus) {
        /** Copies the list. */
        public ExecutionInfo {
            cpus = List.copyOf(cpus);
        }

        /**
         * Without the dispatcher (virtual execution, or a file without it).
         *
         * @param mode live or virtual
         * @param cpus the CPU counts
         * @param sweep whether a sweep
         * @param jitter the jitter
         * @param randomSeed the seed
         * @param scheduling the scheduling, or null
         */
        public ExecutionInfo(
                String mode,
                List<Integer> cpus,
                boolean sweep,
                double jitter,
                long randomSeed,
                SchedulingInfo scheduling) {
            this(mode, cpus, sweep, jitter, randomSeed, scheduling, null, null);
        }

        /**
         * Without the scheduling (as read from a file without it).
         *
         * @param mode live or virtual
         * @param cpus the CPU counts
         * @param sweep whether a sweep
         * @param jitter the jitter
         * @param randomSeed the seed
         */
        public ExecutionInfo(String mode, List<Integer> cpus, boolean sweep, double jitter, long randomSeed) {
            this(mode, cpus, sweep, jitter, randomSeed, null);
        }

        /**
         * @param cpus a count of the run
         * @return whether the seed's figures are judged at that count: the scenario's own, or every count of a run
         *     saved before {@link #seedCpus} was
         */
        public boolean judgesSeedAt(int cpus) {
            return judgesSeedAt(isVirtual(), seedCpus, cpus);
        }

        /**
         * The rule: a seed's figure is of one machine, the scenario's own count; live runs on the host's CPUs, any.
         *
         * @param virtual virtual execution
         * @param seedCpus the scenario's own count; 0: none; null: not known (every count)
         * @param cpus a count the run ran at
         * @return whether the seed's figures are judged at {@code cpus}
         */
        public static boolean judgesSeedAt(boolean virtual, Integer seedCpus, int cpus) {
            return !virtual || seedCpus == null || seedCpus == cpus;
        }

        /** @return true in virtual execution */
        public boolean isVirtual() {
            return "virtual".equals(mode);
        }

        /**
         * @param design a design's name
         * @param cpus a CPU count of the sweep
         * @return the key of that design's results at that count
         */
        public static String key(String design, int cpus) {
            return design + "@" + cpus + "cpu";
        }

        /** A sweep's result key, {@link #key}'s form: the design, the count. */
        private static final java.util.regex.Pattern KEY = java.util.regex.Pattern.compile("(.*)@(\\d{1,9})cpu");

        /**
         * @param key a design's name, or a sweep's {@code <design>@<n>cpu} key ({@link #key})
         * @return the design of a sweep's key, or {@code key} itself
         */
        public static String designOf(String key) {
            java.util.regex.Matcher m = KEY.matcher(key);
            return m.matches() ? m.group(1) : key;
        }

        /**
         * @param key a sweep's {@code <design>@<n>cpu} key ({@link #key})
         * @return its CPU count; -1 for a name that is not such a key
         */
        public static int cpusOf(String key) {
            java.util.regex.Matcher m = KEY.matcher(key);
            return m.matches() ? Integer.parseInt(m.group(2)) : -1;
        }
    }

    /**
     * The model's dispatcher of a live run ({@code netns-lab.dispatcher}): live figures are the JVM's threads, so
     * they depend on it.
     *
     * @param id the dispatcher's configuration path
     * @param executor its {@code executor} setting (fork-join-executor, thread-pool-executor, ...)
     * @param threads the pool's parallelism (fork-join) or largest size (thread pool); -1 for another executor
     */
    public record DispatcherInfo(String id, String executor, int threads) {}

    /**
     * One design run's two clocks.
     *
     * @param wallSeconds real time the design run took (netns creation, warm-up, counted phase, teardown), s
     * @param simulatedSeconds simulated time it took (virtual; NaN in live execution), s
     * @param simulatedEvents discrete events the engine ran during it (virtual; -1 in live execution)
     */
    public record Clocks(double wallSeconds, double simulatedSeconds, long simulatedEvents) {
        /** @return simulated events per wall second (NaN in live execution or when no wall time passed) */
        public double eventsPerWallSecond() {
            return simulatedEvents < 0 || !(wallSeconds > 0) ? Double.NaN : simulatedEvents / wallSeconds;
        }
    }

    /**
     * One replicate: every design run once more, each on a fresh model.
     *
     * @param index its number, from 1
     * @param order the designs' names in the order they ran ({@link ReplicateOrder})
     * @param designs each design's result, in the scenario's order
     * @param clocks each design run's clocks, parallel to {@code designs}; empty when not measured
     */
    public record Replicate(int index, List<String> order, List<DesignResult> designs, List<Clocks> clocks) {
        /** Copies the lists. */
        public Replicate {
            order = List.copyOf(order);
            designs = List.copyOf(designs);
            clocks = List.copyOf(clocks);
            if (!clocks.isEmpty() && clocks.size() != designs.size()) {
                throw new IllegalArgumentException(
                        "one Clocks per design run: " + clocks.size() + " for " + designs.size());
            }
        }

        /** A replicate whose clocks were not measured. */
        public Replicate(int index, List<String> order, List<DesignResult> designs) {
            this(index, order, designs, List.of());
        }
    }

    /**
     * A ratio the seed reported, computed the same way from the model's figures in each replicate.
     *
     * @param name what is divided by what, e.g. {@code busy(fork-exit) / busy(all) in per-listener}
     * @param model the model's value: the mean of the replicates' values
     * @param seed the seed's value
     * @param replicates the value in each replicate, in replicate order
     * @param ciLow lower bound of the 95% t interval of the mean over the replicate values (Student t,
     *     N-1 df); NaN with fewer than 2 replicates
     * @param ciHigh upper bound, likewise
     */
    public record DerivedRatio(
            String name, double model, double seed, List<Double> replicates, double ciLow, double ciHigh) {
        /** Copies the list. */
        public DerivedRatio {
            replicates = List.copyOf(replicates);
        }

        /** A ratio from one run: its one value, no interval. */
        public DerivedRatio(String name, double model, double seed) {
            this(name, model, seed, List.of(model), Double.NaN, Double.NaN);
        }

        /**
         * @param name what is divided by what
         * @param seed the seed's value
         * @param values the value in each replicate, at least one
         * @return the ratio: mean of the values, and their t interval when there are 2 or more
         */
        public static DerivedRatio over(String name, double seed, List<Double> values) {
            double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
            // StatUtils' corrected mean makes x / 0's Infinity NaN; keep it, so a zero denominator is said as such
            double mean = java.util.Arrays.stream(v).anyMatch(Double::isInfinite)
                    ? java.util.Arrays.stream(v).sum() / v.length
                    : org.apache.commons.math3.stat.StatUtils.mean(v);
            if (v.length < 2) {
                return new DerivedRatio(name, mean, seed, values, Double.NaN, Double.NaN);
            }
            double half = new org.apache.commons.math3.distribution.TDistribution(v.length - 1)
                            .inverseCumulativeProbability(0.975)
                    * Math.sqrt(org.apache.commons.math3.stat.StatUtils.variance(v) / v.length);
            return new DerivedRatio(name, mean, seed, values, mean - half, mean + half);
        }
    }

    /** Copies the lists. */
    public RunResult {
        designs = List.copyOf(designs);
        comparisons = List.copyOf(comparisons);
        seedRatios = java.util.Map.copyOf(seedRatios);
        overrides = List.copyOf(overrides);
        ratios = List.copyOf(ratios);
        replicates = List.copyOf(replicates);
    }
}
