import * as fs from 'node:fs';
import { createFeedbackApp } from '/work/wt-suite/lib/app';
const { context } = JSON.parse(fs.readFileSync('/work/wt-suite/cdk.json', 'utf8'));
const cpu = () => { const u = process.resourceUsage(); return (u.userCPUTime + u.systemCPUTime) / 1e6; };
const t0 = Date.now(), c0 = cpu();
const { app } = createFeedbackApp({ outdir: process.argv[2], context: { ...context, ...(process.env.SKIP ? { 'aws:cdk:bundling-stacks': [] } : {}) } });
const t1 = Date.now(), c1 = cpu();
app.synth();
console.log(`construct(+bundle) ${(t1 - t0) / 1000} s wall, ${(c1 - c0).toFixed(1)} s own cpu; synth+nag ${(Date.now() - t1) / 1000} s wall, ${(cpu() - c1).toFixed(1)} s own cpu`);
