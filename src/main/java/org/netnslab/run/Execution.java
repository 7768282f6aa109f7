package org.netnslab.run;

import com.typesafe.config.Config;
import org.netnslab.machine.MachineSettings;

/**
 * How a scenario runs (scenario keys {@code execution}, {@code machine}, {@code random-seed}; defaults in
 * reference.conf).
 *
 * @param mode live (real threads) or virtual (simulated time on a simulated machine)
 * @param machine the simulated machine (virtual only; live ignores it)
 */
public record Execution(Mode mode, MachineSettings machine) {
  /** The execution modes. */
  public enum Mode {
    /** Real threads, {@link System#nanoTime()}. */
    LIVE,
    /** One thread under {@link org.netnslab.machine.VirtualEngine}: simulated time, CPUs and locks. */
    VIRTUAL
  }

  /** @return true for {@link Mode#VIRTUAL} */
  public boolean isVirtual() {
    return mode == Mode.VIRTUAL;
  }

  /**
   * @param netnsLab the {@code netns-lab} block
   * @return reference.conf's (or the --config's) defaults
   */
  public static Execution defaults(Config netnsLab) {
    return new Execution(Mode.valueOf(netnsLab.getString("execution").toUpperCase(java.util.Locale.ROOT)),
        new MachineSettings(netnsLab.getInt("machine.cpus"), netnsLab.getDouble("machine.jitter"),
            netnsLab.getLong("random-seed")));
  }

  /** Live execution with reference.conf's machine (what tests and the embedding API get by default). */
  public static final Execution LIVE = new Execution(Mode.LIVE, new MachineSettings(64, 0.1, 1));

  /**
   * @param replicate 0-based replicate index
   * @return the machine of that replicate: random seed {@code random-seed + replicate}
   */
  public MachineSettings machineFor(int replicate) {
    return new MachineSettings(machine.cpus(), machine.jitter(), machine.randomSeed() + replicate);
  }
}
