/**
 * {@code netns-lab calibrate}: probe programs (src/main/c) measure this host's kernel; {@link CostFit} fits the
 * model's cost block on the <em>fit set</em> (nothing contending) only; {@link Predictions} runs the model with
 * those costs on the <em>prediction set</em>'s loads (contended, never fitted on: a scale ladder of each kind,
 * {@link Ladder}) and on the <em>unseen shapes</em> drawn from the ladder's ranges ({@link UnseenShapes}), and puts
 * measured and predicted side by side against stated bands. The three sets are kept apart in code
 * ({@link ProbeSet}), in calibration.json and in the report. {@link Calibration} runs it all, from the probes (or a recording) to the
 * files it writes; the model's runs are {@link ModelScenario}s, built as objects and written for the user to rerun.
 */
package org.netnslab.calibrate;
