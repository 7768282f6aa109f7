package org.netnslab.netns;

import com.typesafe.config.Config;

/**
 * Simulated costs of the netns lifecycle ({@code netns-lab.model.costs.netns}), charged in virtual
 * execution only. Each cost's source is in reference.conf.
 */
public record LifecycleCosts() {
  /**
   * @param model a model config (a design's keys over {@code netns-lab.model})
   * @return the costs
   */
  public static LifecycleCosts fromConfig(Config model) {
    return new LifecycleCosts();
  }
}
