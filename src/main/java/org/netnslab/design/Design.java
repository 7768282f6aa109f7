package org.netnslab.design;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.netnslab.uevent.SeqnumScope;
import org.netnslab.uevent.UeventSerialization;

/**
 * A design: a named set of strategy choices and model settings that a scenario runs and compares
 * (ARCHITECTURE.md section 3). Immutable.
 *
 * @param name the design's name, e.g. {@code per-netns-2018}
 * @param serialization {@code uevent.serialization}
 * @param seqnumScope {@code uevent.seqnum-scope}
 * @param listenerQueueCapacity {@code uevent.listener-queue-capacity}: messages a listener socket
 *     holds before it drops (its receive buffer), at least 1
 * @param lifecycle the netns lifecycle strategies and RCU settings
 * @param proc the process-monitoring strategies
 */
public record Design(String name, UeventSerialization serialization, SeqnumScope seqnumScope,
    int listenerQueueCapacity, Lifecycle lifecycle, ProcSettings proc) {

  /** A design with the default lifecycle and process-monitoring settings. */
  public Design(String name, UeventSerialization serialization, SeqnumScope seqnumScope, int listenerQueueCapacity) {
    this(name, serialization, seqnumScope, listenerQueueCapacity, Lifecycle.DEFAULT, ProcSettings.DEFAULT);
  }

  /** A design with the default process-monitoring settings. */
  public Design(String name, UeventSerialization serialization, SeqnumScope seqnumScope, int listenerQueueCapacity,
      Lifecycle lifecycle) {
    this(name, serialization, seqnumScope, listenerQueueCapacity, lifecycle, ProcSettings.DEFAULT);
  }

  /** Checks ranges. */
  public Design {
    if (listenerQueueCapacity < 1) {
      throw new IllegalArgumentException("design " + name + ": uevent.listener-queue-capacity must be >= 1, got "
          + listenerQueueCapacity);
    }
  }

  /**
   * Reads a design from its model configuration (the design's own keys over {@code netns-lab.model}).
   *
   * @param name the design's name
   * @param model a config with {@code uevent.serialization}, {@code uevent.seqnum-scope},
   *     {@code uevent.listener-queue-capacity}
   * @return the design
   * @throws IllegalArgumentException for an unknown strategy value or a value out of range, naming the key
   * @throws ConfigException for a missing key or a wrong type (Typesafe Config names file, line and key)
   */
  public static Design fromConfig(String name, Config model) {
    return new Design(name,
        Strategies.parse(UeventSerialization.class, "uevent.serialization", model.getString("uevent.serialization")),
        Strategies.parse(SeqnumScope.class, "uevent.seqnum-scope", model.getString("uevent.seqnum-scope")),
        model.getInt("uevent.listener-queue-capacity"), Lifecycle.fromConfig(model), ProcSettings.fromConfig(model));
  }

  /** @return the strategy choices as {@code result.json} lists them, key to HOCON value */
  public Map<String, String> strategies() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("uevent.serialization", Strategies.name(serialization));
    s.put("uevent.seqnum-scope", Strategies.name(seqnumScope));
    s.put("uevent.listener-queue-capacity", Integer.toString(listenerQueueCapacity));
    s.put("netns.lifecycle-lock", Strategies.name(lifecycle.lock()));
    s.put("sock-inuse.free", Strategies.name(lifecycle.sockInuseFree()));
    s.put("rcu.grace-period", lifecycle.gracePeriod().toNanos() / 1000 + "us");
    s.put("netns.kernel-sockets", Integer.toString(lifecycle.kernelSockets()));
    s.put("sockets.rcu-free-fraction", Double.toString(lifecycle.rcuFreeFraction()));
    s.put("netns.setup-cost", lifecycle.setupCost().toMillis() + "ms");
    s.put("netns.exit-cost", lifecycle.exitCost().toMillis() + "ms");
    s.put("proc-monitor.kind", Strategies.name(proc.monitor()));
    s.put("proc-connector.filter", Strategies.name(proc.filter()));
    s.put("proc-connector.accounting", Strategies.name(proc.accounting()));
    s.put("proc-monitor.live-processes", Integer.toString(proc.liveProcesses()));
    return s;
  }
}
