package org.netnslab.scenario;

import java.util.Set;

/**
 * Reads one {@code workload.type}'s block of a scenario: its keys, types and ranges, the limits its
 * counts reach once scaled, the measures its runs record, and the line {@code validate} prints for
 * it. {@link WorkloadParsers} registers one per type.
 *
 * @param <W> the workload it builds
 */
public interface WorkloadParser<W extends Workload> {
  /** Most operations a scaled count may reach per netns or worker. */
  long MAX_SCALED = 1_000_000_000_000L;

  /** @return the {@code workload.type} it reads, e.g. {@code uevent-injection} */
  String type();

  /** @return the class of the workloads it builds */
  Class<W> workloadClass();

  /**
   * Reads {@code workload.*} (whose {@code type} is this parser's), recording every problem.
   *
   * @param c the scenario's checker
   * @return the workload; meaningless when {@code c} recorded a problem
   */
  W parse(HoconChecker c);

  /**
   * Records a problem when a count, multiplied by {@code --scale}, goes beyond what one run can hold.
   *
   * @param w the workload
   * @param scale {@code --scale}, in (0, 1000]
   * @param c the scenario's checker
   */
  void checkScale(W w, double scale, HoconChecker c);

  /**
   * @param w the workload
   * @return every measure name its runs can record (a derived ratio may name only these)
   */
  Set<String> measures(W w);

  /**
   * @param w the workload
   * @param scale {@code --scale}
   * @return its shape in a few words for {@code validate}, e.g. {@code 5 netns, 10 counted injections per netns}
   */
  String summary(W w, double scale);
}
