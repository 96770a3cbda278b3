// Placeholder until the Input layer lands.
