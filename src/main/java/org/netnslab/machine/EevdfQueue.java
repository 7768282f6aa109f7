package org.netnslab.machine;

import java.util.Comparator;
import java.util.TreeSet;

/**
 * The queued (runnable, not running) tasks of the fair scheduler, ordered by virtual deadline as the
 * kernel's cfs_rq tree is (kernel/sched/fair.c, __pick_eevdf over the deadline-ordered, augmented rbtree).
 * All tasks have weight 1024 (nice 0), so a task's virtual time is its CPU time.
 *
 * <p>Threading: the engine's driver thread only.
 */
final class EevdfQueue {
  private final TreeSet<CpuTask> tree = new TreeSet<>(
      Comparator.<CpuTask>comparingLong(t -> t.deadline).thenComparingLong(t -> t.id));
  private long sumVruntime;

  void add(CpuTask t) {
    tree.add(t);
    t.queued = true;
    sumVruntime += t.vruntime;
  }

  void remove(CpuTask t) {
    tree.remove(t);
    t.queued = false;
    sumVruntime -= t.vruntime;
  }

  boolean isEmpty() {
    return tree.isEmpty();
  }

  int size() {
    return tree.size();
  }

  /** @return the sum of the queued tasks' virtual runtimes (for avg_vruntime) */
  long sumVruntime() {
    return sumVruntime;
  }

  /**
   * pick_eevdf: the eligible task (vruntime <= the average V) with the earliest virtual deadline; when
   * none is eligible (the eligible ones are running), the earliest deadline.
   *
   * @param avgVruntime V, the weighted average virtual runtime of all runnable tasks
   * @return the task, or null when the queue is empty
   */
  CpuTask pick(long avgVruntime) {
    for (CpuTask t : tree) {
      if (t.vruntime <= avgVruntime) {
        return t;
      }
    }
    return tree.isEmpty() ? null : tree.first();
  }
}
