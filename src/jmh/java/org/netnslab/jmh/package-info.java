/**
 * JMH micro-benchmarks of the model's hot paths (the {@code jmh} Maven profile only; never compiled
 * by {@code mvn verify}). Run them with
 * {@code mvn -B -Pjmh -DskipTests test-compile exec:exec@jmh [-Djmh.args='REGEXP ...']}; results go to
 * {@code target/jmh/result.json}. Every figure is a wall-clock time on the JVM that runs it, in the
 * unit its benchmark names: none of them is a simulated (virtual-time) figure.
 */
package org.netnslab.jmh;
