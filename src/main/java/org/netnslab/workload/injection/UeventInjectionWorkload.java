package org.netnslab.workload.injection;

import java.util.Set;
import org.netnslab.run.DesignRunner;
import org.netnslab.workload.Workload;

/**
 * The {@code uevent-injection} workload (seed 000, TC1-TC3): netns owned by their own user
 * namespaces and netns owned by the initial one, listeners in each, and closed-loop injectors that
 * each wait for one injection to be acknowledged before sending the next, like a process looping on
 * sendmsg.
 *
 * @param usernsOwned netns each owned by a new child of the initial user namespace, its injector root there
 * @param initOwned netns owned by the initial user namespace
 * @param listenersPerNetns listener sockets bound in each netns
 * @param injectionsPerNetns counted injections into each netns at scale 1
 * @param warmupPerNetns injections into each netns before the counted ones, left out of every figure
 * @param injectors closed-loop injector tasks
 */
public record UeventInjectionWorkload(int usernsOwned, int initOwned, int listenersPerNetns, long injectionsPerNetns,
    long warmupPerNetns, int injectors) implements Workload {
  /** Measure: injector send to acknowledgement (the sendmsg analog), ns, counted phase only. */
  public static final String TRANSACTION = "uevent.transaction";
  /** Measure: injector send to listener receipt, ns, counted phase only. */
  public static final String DELIVERY = "uevent.delivery";

  @Override
  public String comparedMeasure() {
    return TRANSACTION;
  }

  @Override
  public Set<String> measures() {
    return Set.of(TRANSACTION, DELIVERY);
  }

  @Override
  public DesignRunner runner(double scale) {
    return new UeventInjectionRun(this, scale);
  }

  @Override
  public String shape(double scale) {
    return netnsCount() + " netns, " + countedPerNetns(scale) + " counted injections per netns";
  }

  /** @return netns in all */
  public int netnsCount() {
    return usernsOwned + initOwned;
  }

  /**
   * @param scale the run's {@code --scale}
   * @return counted injections per netns at that scale, rounded, at least 1
   */
  public long countedPerNetns(double scale) {
    return Math.max(1, Math.round(injectionsPerNetns * scale));
  }
}
