package embedding

// SyntheticCorpus exposes the synthetic corpus to the external tests.
var SyntheticCorpus = syntheticCorpus
