// Placeholder until the Feed layer lands.
