/**
 * The machine the model runs on. Live execution: the JVM's threads and {@link java.lang.System#nanoTime()}.
 * Virtual execution: a sequential discrete-event engine ({@link org.netnslab.machine.VirtualEngine}) under
 * Akka's dispatcher and scheduler, with simulated CPUs ({@link org.netnslab.machine.Cpus}) and kernel locks
 * ({@link org.netnslab.machine.Mutex}). Model actors reach it through the {@link org.netnslab.machine.Machine}
 * extension, so the same behaviours run in both modes.
 */
package org.netnslab.machine;
