package org.netnslab.scenario;

import com.typesafe.config.Config;
import org.netnslab.fault.FaultSettings;
import org.netnslab.fault.FaultSwitch;
import org.netnslab.settings.HoconChecker;
import org.netnslab.workload.Workload;

/** The fault switches a scenario sets, against what its workload can take. Stateless. */
final class FaultChecks {
    private FaultChecks() {}

    /**
     * A switch the workload takes none of is refused ({@link Workload#faultRefusal}), and so is a count it takes but
     * could never finish with ({@link Workload#faultCountRefusal}).
     *
     * @param c the scenario, which receives a problem at {@code model.faults.*}
     * @param conf the scenario as read
     * @param workload its workload
     * @param faults the switches every design takes
     */
    static void check(HoconChecker c, Config conf, Workload workload, FaultSettings faults) {
        String type = conf.getString("workload.type");
        String run = ("aeiou".indexOf(type.charAt(0)) >= 0 ? "an " : "a ") + type + " run ";
        for (FaultSwitch f : FaultSwitch.values()) {
            if (faults.every(f) == 0) {
                continue;
            }
            String where = conf.hasPath("model." + f.key())
                    ? ""
                    : " (set as netns-lab.model." + f.key() + " in a --config file or conf/application.conf)";
            String count = workload.faultCountRefusal(f, faults.every(f));
            if (!workload.faultSwitches().contains(f)) {
                c.problem(
                        "model." + f.key(),
                        run + workload.faultRefusal(f) + "; it takes "
                                + (workload.faultSwitches().isEmpty()
                                        ? "none"
                                        : workload.faultSwitches().stream()
                                                .map(x -> "model." + x.key())
                                                .toList()
                                                .toString())
                                + where);
            } else if (count != null) {
                c.problem("model." + f.key(), run + count + where);
            }
        }
    }
}
