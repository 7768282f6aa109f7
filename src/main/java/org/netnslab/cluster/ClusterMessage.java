package org.netnslab.cluster;

/**
 * Every message that crosses between cluster nodes implements this: the cluster's actor systems bind it to
 * Akka's Jackson serializer (CBOR), {@link ClusterConfig}. Records of plain values and actor refs only.
 */
public interface ClusterMessage {}
