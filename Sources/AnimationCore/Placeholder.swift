// Placeholder until the AnimationCore layer lands.
