/**
 * The model's fault switches ({@code netns-lab.model.faults}): deliberate failures of a netns actor,
 * a uevent listener, the cleanup worker and the proc connector, for tests and the isolation soak, and
 * the exception they throw. Which supervision each failing actor gets, and why, is in that actor's
 * Javadoc.
 */
package org.netnslab.fault;
