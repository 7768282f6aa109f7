package org.netnslab.uevent;

import com.typesafe.config.Config;

/**
 * Simulated costs of the uevent paths ({@code netns-lab.model.costs.uevent}), charged in virtual
 * execution only. Each cost's source is in reference.conf.
 */
public record UeventCosts() {
  /**
   * @param model a model config (a design's keys over {@code netns-lab.model})
   * @return the costs
   */
  public static UeventCosts fromConfig(Config model) {
    return new UeventCosts();
  }
}
