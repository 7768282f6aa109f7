package org.netnslab.scenario;

import java.util.Set;

/**
 * Reads a {@code netns-churn} workload: {@code workers}, {@code iterations}, {@code new-userns},
 * {@code sockets}, {@code warmup-iterations}.
 */
final class NetnsChurnParser implements WorkloadParser<NetnsChurnWorkload> {
  private static final Set<String> KEYS =
      Set.of("type", "workers", "iterations", "new-userns", "sockets", "warmup-iterations");

  @Override
  public String type() {
    return "netns-churn";
  }

  @Override
  public Class<NetnsChurnWorkload> workloadClass() {
    return NetnsChurnWorkload.class;
  }

  @Override
  public NetnsChurnWorkload parse(HoconChecker c) {
    c.unknownKeys(c.conf().getObject("workload"), KEYS, "workload.");
    long workers = c.integer("workload.workers", null, 1, 100_000);
    long iterations = c.integer("workload.iterations", null, 1, MAX_SCALED);
    long sockets = c.integer("workload.sockets", 0L, 0, 100_000);
    long warmup = c.integer("workload.warmup-iterations", 0L, 0, MAX_SCALED);
    boolean newUserns = c.bool("workload.new-userns", false);
    return new NetnsChurnWorkload((int) workers, iterations, newUserns, (int) sockets, warmup);
  }

  @Override
  public void checkScale(NetnsChurnWorkload w, double scale, HoconChecker c) {
    if (w.iterations() * scale > MAX_SCALED) {
      c.problem("workload.iterations", "times --scale " + scale + " exceeds " + MAX_SCALED + " iterations per worker");
    }
  }

  @Override
  public Set<String> measures(NetnsChurnWorkload w) {
    // as NetnsChurnRun records them: the loop, and the lifecycle probe's three
    return Set.of(NetnsChurnWorkload.LOOP_WALL, "netns.create", "netns.cleanup", "netns.cleanup_batch");
  }

  @Override
  public String summary(NetnsChurnWorkload w, double scale) {
    return w.workers() + " workers x " + w.scaledIterations(scale) + " iterations";
  }
}
