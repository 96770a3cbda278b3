// Placeholder until the Display layer lands.
