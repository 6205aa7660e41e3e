#!/usr/bin/env node
import { createFeedbackApp } from '../lib/app';

// Offline-synthesizable: no lookups; env comes from the CLI's defaults when present.
createFeedbackApp().app.synth();
