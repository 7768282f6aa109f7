package org.netnslab.proc;

import com.typesafe.config.Config;

/**
 * Simulated costs of the proc connector and the process monitors ({@code netns-lab.model.costs.proc}),
 * charged in virtual execution only. Each cost's source is in reference.conf.
 */
public record ProcCosts() {
  /**
   * @param model a model config (a design's keys over {@code netns-lab.model})
   * @return the costs
   */
  public static ProcCosts fromConfig(Config model) {
    return new ProcCosts();
  }
}
