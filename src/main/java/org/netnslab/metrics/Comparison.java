package org.netnslab.metrics;

/**
 * Design b against design a on one measure: means, the ratio b/a, and Welch's test of a against b
 * (x = a, y = b, as R's {@code t.test(a, b)}).
 *
 * @param measure the measure's name
 * @param a the baseline design
 * @param b the other design
 * @param meanA mean of a, in the measure's unit
 * @param meanB mean of b, in the measure's unit
 * @param ratioBOverA meanB / meanA
 * @param welch the test, in the measure's unit
 */
public record Comparison(String measure, String a, String b, double meanA, double meanB, double ratioBOverA,
    WelchTest welch) {

  /**
   * @param measure the measure compared
   * @param a baseline design result
   * @param b other design result
   * @return the comparison; its test is null when a side has fewer than 2 values or no variance
   */
  public static Comparison of(String measure, DesignResult a, DesignResult b) {
    LatencyRecorder ra = a.recorders().get(measure);
    LatencyRecorder rb = b.recorders().get(measure);
    double us = ra.perUnit();
    double meanA = ra.meanNanos() / us;
    double meanB = rb.meanNanos() / us;
    WelchTest w = null;
    if (ra.count() >= 2 && rb.count() >= 2 && ra.varianceNanos2() + rb.varianceNanos2() > 0) {
      w = WelchTest.of(meanA, ra.varianceNanos2() / (us * us), ra.count(), meanB, rb.varianceNanos2() / (us * us),
          rb.count());
    }
    return new Comparison(measure, a.name(), b.name(), meanA, meanB, meanA == 0 ? Double.NaN : meanB / meanA, w);
  }
}
