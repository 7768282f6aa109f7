package org.netnslab.scenario;

/** A scenario's workload: what its {@code workload.type} asks for. */
public sealed interface Workload permits UeventInjectionWorkload, NetnsChurnWorkload, ProcEventsWorkload {
  /** @return the measure comparisons are made on */
  String comparedMeasure();
}
