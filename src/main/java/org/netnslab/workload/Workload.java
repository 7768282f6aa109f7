package org.netnslab.workload;

/** A scenario's workload: what its {@code workload.type} asks for. */
public interface Workload {
  /** @return the measure comparisons are made on */
  String comparedMeasure();
}
