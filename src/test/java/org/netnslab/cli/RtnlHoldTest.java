package org.netnslab.cli;

import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * RTNL in the netns lifecycle ({@code netns.rtnl}): setup_net's register_netdev and a cleanup batch's
 * unregister_netdevice_many hold one rtnl_mutex, so creations wait for each other's hold and for a batch's. Exact
 * virtual times: no jitter, 2 CPUs, fair scheduler.
 */
public class RtnlHoldTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static final String DESIGNS = String.join(
            "\n",
            "  designs {",
            "    \"no-rtnl\" { description = \"RTNL not modelled\", netns.lifecycle-lock = rwsem, netns.cleanup-rcu = expedited }",
            "    \"rtnl\" { description = \"all of setup and exits under RTNL\", netns.lifecycle-lock = rwsem,",
            "      netns.cleanup-rcu = expedited, netns.rtnl { setup-share = 1, exit-share = 1 } }",
            "  }");

    /** The netns.create figures of both designs: [design][p50, max], us. */
    private double[][] creates(int workers, int iterations, String exitPerNetns) throws Exception {
        Path dir = tmp.newFolder().toPath();
        Files.writeString(
                dir.resolve("c.conf"),
                String.join(
                        "\n",
                        "netns-lab {",
                        "  machine { scheduler = fair, preempt = none, jitter = 0 }",
                        "  model {",
                        "    costs.netns.setup-net = 1ms",
                        "    costs.netns.unshare-process = 10us",
                        "    costs.netns.unshare-process-user = 0us",
                        "    costs.netns.exit-per-netns = " + exitPerNetns,
                        "    rcu.grace-period = 10us",
                        "    rcu.expedited-grace-period = 10us",
                        "  }",
                        DESIGNS,
                        "}",
                        ""));
        Files.writeString(
                dir.resolve("s.conf"),
                String.join(
                        "\n",
                        "name = rtnl",
                        "description = \"creations and RTNL\"",
                        "seed = \"test\"",
                        "workload { type = netns-churn, workers = " + workers + ", iterations = " + iterations
                                + ", new-userns = false, sockets = 0, warmup-iterations = 0 }",
                        "execution = virtual",
                        "machine { cpus = 2 }",
                        "designs = [\"no-rtnl\", \"rtnl\"]",
                        ""));
        Path out = dir.resolve("out");
        assertEquals(
                0,
                Main.execute(
                        "run",
                        dir.resolve("s.conf").toString(),
                        "--config",
                        dir.resolve("c.conf").toString(),
                        "--out",
                        out.toString(),
                        "--no-progress"));
        JsonNode r = new ObjectMapper().readTree(out.resolve("result.json").toFile());
        double[][] v = new double[2][];
        for (int d = 0; d < 2; d++) {
            JsonNode c = r.at("/designs/" + d + "/measures/netns.create");
            v[d] = new double[] {c.get("p50").asDouble(), c.get("max").asDouble()};
        }
        return v;
    }

    @Test
    public void twoCreationsOnTwoCpusRunTheirSetupsInParallelUnlessRtnlSerialisesThem() throws Exception {
        double[][] v = creates(2, 1, "0us");
        // without RTNL both setup_nets (1 ms each) run at once on the two CPUs
        assertEquals(1000.45, v[0][1], 0.01);
        // with all of setup_net under RTNL the second waits for the first's hold: 1 ms more and the mutex hand-off
        assertEquals(1000.45, v[1][0], 0.01);
        assertEquals(2002.94, v[1][1], 0.01);
    }

    @Test
    public void aCreationWaitsForTheCleanupBatchsHold() throws Exception {
        // one loop of two: the first netns's cleanup takes RTNL as the second creation starts, and holds it for two
        // expedited grace periods (unregister_netdevice_many's synchronize_net, 10 us each) around its 5 ms of exits
        double[][] v = creates(1, 2, "5ms");
        assertEquals(1000.45, v[0][1], 0.01);
        assertEquals(6025.22, v[1][1], 0.01);
    }
}
