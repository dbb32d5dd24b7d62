package demo

var techIndustries = []industrySpec{
	{
		label: "SAAS", weight: 5, arch: archSoftware,
		kinds:   "SaaS company, software platform, cloud software provider",
		names:   "Suite, Flow, Desk, Stack, Sync",
		models:  "B2B:9 B2C:1",
		related: "SOFTWARE CLOUD_COMPUTING DATA_ANALYTICS",
		vendors: "stripe.com segment.com intercom.com mixpanel.com amplitude.com pendo.io chargebee.com launchdarkly.com statuspage.io",
		terms: "subscription software, SaaS platform, integrations, open API, dashboards, workflow automation, user onboarding, " +
			"role-based permissions, single sign-on, mobile app, free trial, annual plans, uptime SLA, data export, templates, " +
			"real-time collaboration, admin console, audit logs, customer success, webhooks, enterprise plan, self-serve signup, " +
			"usage reports, notifications, browser extension, product updates",
		niches: []nicheSpec{
			{"subscription billing",
				"SaaS startups, subscription businesses, finance teams, revenue operations teams, membership sites, usage-based software vendors",
				"recurring billing, subscription management, usage-based pricing, metered billing, invoicing, dunning management, " +
					"failed payment recovery, revenue recognition, ASC 606 compliance, proration, plan upgrades, coupon management, " +
					"tax calculation, payment gateway integration, churn reduction, MRR reporting, ARR metrics, customer billing portal, " +
					"quote-to-cash, pricing experiments, tiered pricing, seat-based licensing, billing automation, accounts receivable, " +
					"payment retries, credit notes, multi-currency billing, sales tax, VAT handling, invoice templates, billing cycles, " +
					"trial conversion, revenue leakage, collections workflow, billing disputes, entitlements, price books, " +
					"self-serve checkout, payment reminders, net revenue retention, " +
					"subscription analytics, billing API, invoice PDFs, grace periods"},
			{"HR and payroll software",
				"HR teams, small businesses, people operations leaders, payroll administrators, distributed teams, growing startups",
				"payroll processing, employee onboarding, benefits administration, time tracking, timesheets, PTO management, " +
					"leave requests, performance reviews, OKR tracking, employee self-service, org charts, compensation planning, " +
					"payslips, payroll tax filings, W-2 forms, contractor payments, shift scheduling, attendance tracking, " +
					"employee engagement surveys, pulse surveys, HRIS, applicant tracking, job requisitions, offer letters, " +
					"headcount planning, employee records, expense reimbursement, 401(k) integration, global payroll, employer of record, " +
					"workforce analytics, learning paths, career development, one-on-ones, feedback cycles, recognition programs, " +
					"offboarding checklists, benefits enrollment, holiday calendars, " +
					"time-off policies, payroll journal, employee directory, pay stubs"},
			{"sales engagement",
				"sales teams, SDR teams, account executives, revenue leaders, B2B marketers, growth agencies",
				"sales pipeline, CRM integration, lead scoring, email sequences, cadence automation, prospecting, deal tracking, " +
					"sales forecasting, call recording, conversation intelligence, meeting scheduling, quota attainment, " +
					"territory management, account-based selling, contact enrichment, email tracking, reply detection, sales playbooks, " +
					"opportunity management, win rates, pipeline reviews, activity logging, power dialer, click-to-call, " +
					"LinkedIn outreach, lead routing, round-robin assignment, sales coaching, digital deal rooms, proposal software, CPQ, " +
					"commission tracking, revenue intelligence, buyer intent signals, inbox warmup, cold email deliverability, " +
					"sales analytics, follow-up reminders, champion tracking, " +
					"call scripts, objection handling, sales cadences, deal velocity"},
			{"project management",
				"product teams, creative agencies, engineering teams, operations managers, remote teams, project management offices",
				"task management, kanban boards, gantt charts, sprint planning, project timelines, milestones, resource allocation, " +
					"workload management, team collaboration, project portfolios, product roadmaps, task dependencies, time estimates, " +
					"status reports, issue tracking, backlog grooming, agile workflows, scrum boards, project templates, file sharing, " +
					"comments and mentions, recurring tasks, checklists, calendar view, custom fields, project budgets, client portals, " +
					"approval flows, creative proofing, capacity planning, retrospectives, goal tracking, online whiteboards, " +
					"team wikis, meeting notes, guest access, progress dashboards, subtasks, priorities, burndown charts, " +
					"portfolio dashboards, time logging, sprint velocity"},
			{"customer support software",
				"support teams, customer service managers, ecommerce brands, software companies, contact centers, IT help desks",
				"help desk, ticketing system, shared inbox, live chat, support chatbots, knowledge base, self-service portal, " +
					"omnichannel support, SLA management, ticket routing, canned responses, customer satisfaction surveys, CSAT scores, " +
					"NPS surveys, first response time, agent productivity, support macros, escalation rules, support analytics, " +
					"customer history, community forums, in-app messaging, email support, phone support, call center software, " +
					"auto-replies, ticket tagging, sentiment analysis, help center, FAQ pages, agent collaboration, internal notes, " +
					"customer feedback, feature requests, product tours, resolution time, support queues, workforce management, " +
					"chat transcripts, multilingual support, " +
					"ticket deflection, support SLAs, agent workspace"},
		},
	},
	{
		label: "SOFTWARE", weight: 5, arch: archSoftware,
		kinds:   "software company, software developer, software vendor",
		names:   "Software, Code, Logic, Bits",
		models:  "B2B:7 B2C:2 B2G:1",
		related: "SAAS IT_SERVICES CLOUD_COMPUTING",
		vendors: "github.com atlassian.com sentry.io jetbrains.com datadoghq.com docker.com",
		terms: "software development, software products, releases, licensing, source code, developers, engineering team, " +
			"version updates, desktop software, installers, documentation, technical support, product roadmap, bug fixes, " +
			"beta program, software license, on-premise deployment, cross-platform support, release notes, developer community, " +
			"maintenance plans, software quality, feature requests",
		niches: []nicheSpec{
			{"developer tools",
				"software engineers, DevOps teams, platform engineering teams, open-source maintainers, CTOs, QA engineers",
				"code editor, IDE plugins, debugger, compilers, build system, continuous integration, CI/CD pipelines, code review, " +
					"static analysis, linting, unit testing, test automation, code coverage, package manager, dependency management, " +
					"version control, git hosting, merge requests, monorepo tooling, feature flags, error tracking, profiling, " +
					"API testing, SDKs, command-line tools, developer experience, build caching, artifact repository, " +
					"infrastructure as code, secrets management, code search, refactoring tools, language server, open source, " +
					"developer productivity, release automation, changelogs, semantic versioning, code quality gates, " +
					"code snippets, terminal tools, build logs"},
			{"ERP software",
				"manufacturers, distributors, finance departments, mid-market companies, wholesale businesses, supply chain managers",
				"enterprise resource planning, ERP implementation, general ledger, inventory management, procurement, " +
					"purchase orders, sales orders, accounts payable, financial consolidation, material requirements planning, MRP, " +
					"bill of materials, production planning, warehouse management, order fulfillment, multi-entity accounting, " +
					"cost accounting, fixed assets, budgeting module, supplier management, demand planning, lot tracking, " +
					"serial number tracking, shop floor control, ERP modules, chart of accounts, month-end close, intercompany transactions, " +
					"EDI integration, customer master data, item master, landed costs, three-way matching, ERP migration, " +
					"business process automation, role-based dashboards, audit trail, compliance reporting, " +
					"general ledger integration, ERP cloud edition, procurement workflows"},
			{"design and CAD software",
				"architects, product designers, mechanical engineers, animators, game artists, industrial designers",
				"CAD software, 3D modeling, parametric design, rendering engine, vector graphics, photo editing, digital painting, " +
					"animation software, motion graphics, technical drawings, drafting tools, BIM modeling, sculpting, texturing, " +
					"ray tracing, design libraries, layers and masks, typography tools, color management, asset libraries, " +
					"prototyping, wireframes, design systems, UI design, plugins marketplace, file formats, STEP files, DWG files, " +
					"simulation, finite element analysis, generative design, point clouds, 3D printing preparation, mesh editing, " +
					"GPU acceleration, tablets and styluses, design collaboration, version history, " +
					"CAM toolpaths, design reviews, assembly modeling"},
			{"mobile app development",
				"startups, consumer brands, retailers, media companies, product managers, digital agencies",
				"iOS apps, Android apps, mobile app development, app store optimization, push notifications, in-app purchases, " +
					"React Native, Flutter, Swift development, Kotlin development, cross-platform apps, mobile UX, app prototypes, " +
					"mobile backend, offline mode, app analytics, crash reporting, beta testing, TestFlight, app store submission, " +
					"mobile wallets, geolocation features, QR scanning, mobile onboarding, deep linking, app monetization, " +
					"subscription apps, mobile SDK, wearable apps, tablet apps, app maintenance, mobile security, app performance, " +
					"accessibility, dark mode, widget design, app updates, mobile commerce apps, " +
					"app store reviews, mobile prototyping, app wireframes"},
		},
	},
	{
		label: "CLOUD_COMPUTING", weight: 3, arch: archSoftware,
		kinds:   "cloud provider, hosting company, cloud infrastructure provider",
		names:   "Cloud, Compute, Hosting, Servers, Nodes",
		models:  "B2B:9 B2C:1",
		related: "IT_SERVICES SAAS CYBERSECURITY",
		vendors: "amazonaws.com cloudflare.com datadoghq.com hashicorp.com statuspage.io docker.com",
		terms: "cloud infrastructure, data centers, availability zones, virtual machines, scalability, high availability, " +
			"uptime guarantee, pay-as-you-go pricing, bandwidth, network latency, load balancing, DDoS protection, " +
			"private networking, control panel, cloud migration, disaster recovery, 24/7 monitoring, compute resources, " +
			"regions worldwide, hybrid cloud, multi-cloud, IPv6, root access, SSD storage",
		niches: []nicheSpec{
			{"managed Kubernetes",
				"platform teams, DevOps engineers, SaaS companies, microservices teams, site reliability engineers, scale-ups",
				"Kubernetes clusters, container orchestration, managed control plane, node pools, pods, Helm charts, " +
					"container registry, autoscaling, horizontal pod autoscaler, service mesh, ingress controllers, GitOps, " +
					"cluster upgrades, namespaces, persistent volumes, container images, microservices, observability stack, " +
					"Prometheus metrics, cluster security, workload identity, cost allocation, spot nodes, multi-cluster management, " +
					"deployment pipelines, blue-green deployments, canary releases, operators, cluster networking, CNI plugins, " +
					"etcd backups, rolling updates, cluster templates, container runtime, resource quotas, platform engineering, " +
					"internal developer platform, Kubernetes consulting, " +
					"cluster autoscaler, kubectl access, container logs, node health"},
			{"object storage and backup",
				"media companies, backup administrators, archives, research labs, enterprises, software vendors",
				"object storage, S3-compatible storage, storage buckets, cold storage, archival storage, data durability, " +
					"geo-replication, backup software, snapshots, immutable backups, ransomware recovery, retention policies, " +
					"versioning, lifecycle rules, egress fees, storage tiers, block storage, file storage, NAS, data deduplication, " +
					"compression, encryption at rest, backup verification, point-in-time recovery, offsite backups, media archives, " +
					"large file transfers, data migration, petabyte scale, erasure coding, storage gateways, cloud sync, " +
					"backup scheduling, restore testing, air-gapped copies, WORM storage, endpoint backup, " +
					"backup vaults, object locking, storage classes"},
			{"edge and CDN",
				"media streaming companies, ecommerce sites, gaming studios, news publishers, API providers, web developers",
				"content delivery network, edge caching, points of presence, edge computing, cache purging, origin shielding, " +
					"video streaming delivery, image optimization, TLS certificates, HTTP/3, anycast network, DNS hosting, " +
					"edge functions, web application firewall, bot mitigation, rate limiting, real user monitoring, " +
					"time to first byte, static site hosting, edge logic, geo-routing, traffic steering, live streaming, " +
					"video on demand, adaptive bitrate, large file delivery, software downloads, cache hit ratio, edge storage, " +
					"serverless at the edge, Brotli compression, origin failover, latency-based routing, peering, IPv6 delivery, " +
					"cache rules, " +
					"edge certificates, purge API, CDN analytics, cache keys"},
			{"serverless and VPS hosting",
				"web developers, small businesses, indie hackers, WordPress sites, agencies, startups",
				"VPS hosting, dedicated servers, bare metal servers, serverless functions, managed WordPress hosting, " +
					"shared hosting, one-click installs, cPanel, SSH access, server snapshots, managed databases, PostgreSQL hosting, " +
					"Redis hosting, app platform, git deployments, domain registration, email hosting, SSL certificates, " +
					"cron jobs, function triggers, cold starts, event-driven architecture, API gateway, static websites, " +
					"staging environments, server monitoring, automatic backups, firewall rules, floating IPs, hourly billing, " +
					"server plans, RAM and vCPU, Linux distributions, Windows servers, container hosting, serverless databases, " +
					"website builder, uptime monitoring, " +
					"server provisioning, vCPU cores, monthly server plans"},
		},
	},
	{
		label: "CYBERSECURITY", weight: 3, arch: archSoftware,
		kinds:   "cybersecurity company, security vendor, security firm",
		names:   "Security, Secure, Cyber, Shield, Guard",
		models:  "B2B:8 B2G:2",
		related: "IT_SERVICES SOFTWARE CLOUD_COMPUTING",
		vendors: "okta.com crowdstrike.com cloudflare.com zscaler.com splunk.com onetrust.com",
		terms: "cybersecurity, threat protection, security operations, cyber attacks, data breaches, compliance, risk management, " +
			"zero trust, security posture, threat intelligence, vulnerabilities, security teams, CISOs, SOC 2, ISO 27001, " +
			"incident response, encryption, security awareness, attack surface, security audits, cyber resilience",
		niches: []nicheSpec{
			{"endpoint security",
				"IT administrators, security teams, mid-size companies, managed service providers, schools, healthcare organizations",
				"endpoint protection, EDR, XDR, antivirus, anti-malware, ransomware protection, device control, application control, " +
					"behavioral detection, threat hunting, endpoint isolation, exploit prevention, malware sandbox, device encryption, " +
					"patch management, vulnerability scanning, mobile device management, laptop security, rollback remediation, " +
					"fileless attacks, zero-day threats, endpoint telemetry, lightweight agent, security console, USB control, " +
					"host firewall, threat detection rules, endpoint visibility, quarantine, signature updates, machine learning detection, " +
					"managed detection and response, remote workforce security, BYOD security, forensic timeline, " +
					"attack chain visualization, endpoint compliance, kernel protection, " +
					"endpoint agents, threat quarantine, malware signatures"},
			{"identity and access management",
				"IT teams, enterprises, SaaS companies, compliance officers, banks, government agencies",
				"identity management, access management, single sign-on, multi-factor authentication, passwordless login, " +
					"privileged access management, identity governance, user provisioning, SCIM, directory services, " +
					"access reviews, role-based access control, least privilege, password managers, passkeys, FIDO2 keys, " +
					"adaptive authentication, identity federation, SAML, OpenID Connect, customer identity, CIAM, " +
					"session management, just-in-time access, secrets vault, service accounts, identity threat detection, " +
					"account takeover prevention, credential stuffing protection, lifecycle management, joiner-mover-leaver, " +
					"entitlement management, access certification, biometric authentication, identity verification, KYC checks, " +
					"authenticator app, break-glass accounts, " +
					"login flows, access policies, identity providers"},
			{"network security",
				"network engineers, enterprises, data centers, universities, retailers, branch offices",
				"next-generation firewall, intrusion prevention, intrusion detection, VPN, secure web gateway, SASE, SD-WAN security, " +
					"network segmentation, microsegmentation, DNS filtering, URL filtering, network access control, " +
					"secure remote access, ZTNA, traffic inspection, TLS inspection, DDoS mitigation, network monitoring, " +
					"packet capture, NetFlow analysis, firewall management, rule optimization, VLANs, perimeter security, " +
					"east-west traffic, industrial network security, OT security, IoT security, wireless security, " +
					"guest network isolation, threat prevention, sandboxing, email gateway, phishing protection, spam filtering, " +
					"deception technology, honeypots, network detection and response, " +
					"firewall policies, IPS signatures, remote access VPN"},
			{"security operations and testing",
				"CISOs, security analysts, compliance managers, fintech companies, SaaS vendors, public sector bodies",
				"security operations center, SIEM, SOAR, log management, alert triage, managed SOC, penetration testing, " +
					"red teaming, vulnerability assessments, bug bounty programs, security audits, compliance automation, " +
					"SOC 2 readiness, ISO 27001 certification, PCI DSS compliance, HIPAA security, security questionnaires, " +
					"risk assessments, threat modeling, attack simulation, breach and attack simulation, purple teaming, " +
					"cloud security posture management, CSPM, application security testing, SAST, DAST, software composition analysis, " +
					"code scanning, container scanning, security awareness training, phishing simulations, incident response retainer, " +
					"digital forensics, dark web monitoring, cyber insurance readiness, vCISO services, " +
					"pentest reports, vulnerability remediation, security scorecards"},
		},
	},
	{
		label: "IT_SERVICES", weight: 6, arch: archServices, size: -1,
		kinds:   "IT services company, managed service provider, IT consultancy",
		names:   "IT, Tech, Networks, Support, Computing",
		models:  "B2B:9 B2G:1",
		related: "CLOUD_COMPUTING CYBERSECURITY SOFTWARE",
		vendors: "microsoft.com connectwise.com datto.com kaseya.com freshworks.com zendesk.com",
		terms: "IT services, managed IT, IT support, technicians, service desk, IT infrastructure, business technology, " +
			"Microsoft 365, IT consulting, on-site support, remote support, IT projects, network management, server maintenance, " +
			"IT budgets, technology partners, response times, service level agreements, certified engineers, IT roadmap",
		niches: []nicheSpec{
			{"managed IT services",
				"small businesses, law firms, medical practices, accounting firms, nonprofits, schools",
				"managed service provider, MSP, help desk support, remote monitoring and management, RMM, patch management, " +
					"proactive maintenance, flat-fee IT, IT support contracts, ticketing, user support, device management, " +
					"backup and disaster recovery, business continuity, email security, spam filtering, antivirus management, " +
					"IT asset management, network monitoring, Wi-Fi support, printer support, password resets, onboarding new hires, " +
					"vCIO services, technology business reviews, IT documentation, vendor management, licensing management, " +
					"cloud backup, server monitoring, after-hours support, unlimited support, co-managed IT, IT audits, " +
					"workstation setup, end-user training, compliance support, IT policies, " +
					"IT helpdesk tickets, managed firewalls, monthly IT reports"},
			{"systems integration",
				"enterprises, government agencies, utilities, hospitals, banks, manufacturers",
				"systems integration, implementation services, legacy modernization, application migration, data integration, " +
					"middleware, enterprise architecture, API integration, ERP implementation partner, CRM implementation, " +
					"SAP consulting, Oracle consulting, Salesforce implementation, ServiceNow implementation, integration platform, " +
					"custom connectors, solution architecture, project delivery, program management, business analysis, " +
					"requirements gathering, user acceptance testing, go-live support, change management, data migration services, " +
					"mainframe modernization, application maintenance, system upgrades, integration testing, technical architecture, " +
					"digital transformation, process automation, RPA, low-code development, application support, offshore delivery, " +
					"integration roadmap, cutover planning, hypercare, " +
					"integration partners"},
			{"IT staffing",
				"CIOs, hiring managers, consulting firms, enterprises, startups, government contractors",
				"IT staffing, contract developers, staff augmentation, IT recruiters, technical recruiting, contract-to-hire, " +
					"permanent placement, nearshore developers, offshore teams, dedicated development teams, software engineers for hire, " +
					"DevOps contractors, data engineers, cloud architects, project managers, business analysts, QA testers, " +
					"technical screening, coding assessments, candidate pipeline, talent pool, rate cards, statement of work, " +
					"payrolling services, contractor compliance, IR35, W-2 contractors, 1099 contractors, bench strength, " +
					"time-to-fill, retained search, executive IT search, IT consultants, skills matrix, remote engineers, " +
					"engagement managers, onboarding contractors, replacement guarantee, " +
					"contract extensions, candidate shortlists, hiring sprints"},
			{"network and cabling installation",
				"offices, warehouses, hotels, schools, retail chains, property managers",
				"structured cabling, network installation, Cat6 cabling, fiber optic installation, Wi-Fi installation, " +
					"wireless site survey, access points, network switches, routers, server racks, patch panels, cable management, " +
					"data center cabling, low-voltage wiring, VoIP phone systems, phone system installation, security cameras, " +
					"access control systems, PoE, network closets, rack and stack, office moves, network upgrades, " +
					"network troubleshooting, cable certification, fiber splicing, point-to-point wireless, outdoor Wi-Fi, " +
					"network design, firewall installation, SD-WAN deployment, smart building wiring, audio visual installation, " +
					"conference room technology, digital signage, cabling contractors, as-built documentation, " +
					"rack installation, cable runs, network drops"},
		},
	},
	{
		label: "ARTIFICIAL_INTELLIGENCE", weight: 3, arch: archSoftware,
		kinds:   "AI company, machine learning company, AI startup",
		names:   "AI, Mind, Neural, Cognition, Intelligence",
		models:  "B2B:8 B2C:1 B2G:1",
		related: "DATA_ANALYTICS SOFTWARE SAAS",
		vendors: "openai.com huggingface.co nvidia.com databricks.com snowflake.com wandb.ai",
		terms: "artificial intelligence, machine learning, AI models, deep learning, training data, model accuracy, " +
			"inference, neural networks, AI research, data scientists, predictions, automation, AI platform, GPU compute, " +
			"responsible AI, model deployment, AI solutions, algorithms, fine-tuning, benchmarks",
		niches: []nicheSpec{
			{"computer vision",
				"manufacturers, retailers, security companies, agritech companies, logistics operators, smart city projects",
				"computer vision, image recognition, object detection, image segmentation, video analytics, visual inspection, " +
					"defect detection, optical character recognition, OCR, facial recognition, pose estimation, license plate recognition, " +
					"people counting, shelf monitoring, quality inspection cameras, image annotation, bounding boxes, labeled images, " +
					"edge AI cameras, smart cameras, thermal imaging analytics, drone imagery, satellite imagery analysis, " +
					"medical image analysis, 3D vision, depth sensing, visual search, anomaly detection, traffic analytics, " +
					"surveillance analytics, vision transformers, convolutional networks, frame rates, camera calibration, " +
					"synthetic images, image datasets, document scanning, " +
					"image classifiers, video frames, visual AI models"},
			{"natural language processing",
				"customer service teams, legal departments, publishers, banks, healthcare providers, contact centers",
				"natural language processing, NLP, text classification, named entity recognition, sentiment analysis, " +
					"speech recognition, transcription, machine translation, conversational AI, virtual assistants, chatbots, " +
					"intent detection, text summarization, document understanding, information extraction, semantic search, " +
					"question answering, language models, voice assistants, text-to-speech, speech analytics, call transcription, " +
					"multilingual models, topic modeling, entity linking, contract analysis, email classification, knowledge graphs, " +
					"text analytics, tokenization, embeddings, keyword extraction, dialogue management, voice bots, " +
					"language detection, content moderation, spell checking, " +
					"text pipelines, language understanding, corpus annotation"},
			{"MLOps platforms",
				"data science teams, ML engineers, AI labs, enterprises, research institutes, fintech companies",
				"MLOps, model training pipelines, experiment tracking, model registry, feature store, model monitoring, " +
					"data drift detection, model serving, inference endpoints, GPU clusters, distributed training, hyperparameter tuning, " +
					"AutoML, model versioning, reproducibility, ML pipelines, notebooks, data labeling, annotation tools, " +
					"model explainability, bias detection, model governance, A/B testing models, batch inference, real-time inference, " +
					"model compression, quantization, edge deployment, ML observability, training datasets, dataset versioning, " +
					"compute orchestration, model cards, continuous training, shadow deployments, latency optimization, " +
					"cost per inference, ML infrastructure, " +
					"training jobs, GPU scheduling, model lineage"},
			{"generative AI",
				"marketing teams, software developers, content creators, enterprises, designers, customer support teams",
				"generative AI, large language models, LLM applications, AI copilots, prompt engineering, retrieval-augmented generation, " +
					"RAG pipelines, vector databases, AI agents, AI writing assistant, code generation, image generation, " +
					"text-to-image, AI video generation, voice cloning, synthetic media, foundation models, model fine-tuning, " +
					"AI guardrails, hallucination detection, LLM evaluation, prompt templates, context windows, tool calling, " +
					"enterprise AI assistants, AI search, knowledge assistants, content generation, AI avatars, chat interfaces, " +
					"private LLM deployment, open-weight models, token costs, AI workflows, agent orchestration, AI safety, " +
					"AI-generated images, document Q&A, " +
					"AI copywriting, prompt libraries, generative workflows, model routing"},
		},
	},
	{
		label: "DATA_ANALYTICS", weight: 3, arch: archSoftware,
		kinds:   "analytics company, data company, data consultancy",
		names:   "Data, Analytics, Insights, Metrics",
		models:  "B2B:9 B2G:1",
		related: "ARTIFICIAL_INTELLIGENCE SAAS CONSULTING",
		vendors: "snowflake.com databricks.com tableau.com looker.com fivetran.com getdbt.com",
		terms: "data analytics, business data, insights, reporting, dashboards, KPIs, data-driven decisions, data teams, " +
			"analysts, data quality, data sources, data warehouse, metrics, trends, visualization, self-service analytics, " +
			"data governance, SQL, data pipelines, benchmarking",
		niches: []nicheSpec{
			{"business intelligence",
				"executives, finance teams, operations managers, mid-market companies, retailers, public sector analysts",
				"business intelligence, BI dashboards, interactive reports, executive scorecards, KPI tracking, ad hoc analysis, " +
					"drill-down reports, embedded analytics, semantic layer, data modeling, Power BI, Tableau dashboards, " +
					"report scheduling, pixel-perfect reports, financial reporting, sales dashboards, operational reporting, " +
					"data storytelling, charts and graphs, pivot tables, row-level security, mobile dashboards, alerting, " +
					"natural language queries, report distribution, metric definitions, single source of truth, BI consulting, " +
					"dashboard design, reporting automation, variance analysis, budget versus actuals, board reporting, " +
					"self-service BI, OLAP cubes, data visualization training, BI migration, " +
					"dashboard templates, report builder, KPI definitions"},
			{"data engineering",
				"data engineers, analytics engineers, CTOs, data platform teams, scale-ups, enterprises",
				"data engineering, ETL pipelines, ELT, data ingestion, change data capture, streaming data, Apache Kafka, " +
					"data lakes, lakehouse, data warehouse modernization, dbt models, data orchestration, Airflow, batch processing, " +
					"data transformation, schema management, data catalogs, data lineage, data observability, data contracts, " +
					"reverse ETL, data integration, connectors, API ingestion, Parquet files, partitioning, query performance, " +
					"cost optimization, Spark jobs, real-time pipelines, event streaming, master data management, data mesh, " +
					"data platform architecture, pipeline monitoring, data freshness, backfills, " +
					"pipeline orchestration, ingestion jobs, lake storage"},
			{"market research",
				"brands, consumer goods companies, agencies, product managers, media owners, retailers",
				"market research, consumer surveys, online panels, survey design, focus groups, in-depth interviews, " +
					"brand tracking, customer segmentation studies, concept testing, ad testing, pricing research, conjoint analysis, " +
					"usage and attitude studies, market sizing, competitive intelligence, shopper research, qualitative research, " +
					"quantitative research, survey programming, sample recruitment, respondents, questionnaire design, " +
					"tabulation, statistical analysis, trend reports, consumer insights, mystery shopping, ethnographic research, " +
					"customer journey research, brand health, awareness studies, panel management, online communities, " +
					"research reports, B2B research, net promoter studies, syndicated research, " +
					"survey panels, fieldwork, research fieldwork partners"},
			{"customer analytics",
				"ecommerce brands, subscription businesses, marketing teams, product teams, banks, telecom operators",
				"customer analytics, customer data platform, CDP, customer segmentation, churn prediction, retention analysis, " +
					"cohort analysis, customer lifetime value, LTV modeling, RFM analysis, customer journey analytics, " +
					"product analytics, funnel analysis, event tracking, attribution modeling, marketing mix modeling, " +
					"personalization, next best action, propensity models, identity resolution, unified customer profiles, " +
					"audience activation, behavioral analytics, session analysis, A/B test analysis, uplift modeling, " +
					"customer health scores, engagement scoring, win-back campaigns, customer 360, web analytics, clickstream data, " +
					"conversion optimization, basket analysis, loyalty analytics, voice of the customer, " +
					"churn scores, retention cohorts, customer signals, " +
					"customer insights dashboards"},
		},
	},
	{
		label: "TELECOMMUNICATIONS", weight: 3, arch: archIndustrial, size: 1,
		kinds:   "telecommunications company, telecom operator, communications provider",
		names:   "Telecom, Wireless, Fiber, Connect, Mobile",
		models:  "B2C:5 B2B:4 B2G:1",
		related: "HARDWARE_ELECTRONICS IT_SERVICES CLOUD_COMPUTING",
		vendors: "twilio.com vonage.com ringcentral.com salesforce.com zendesk.com",
		terms: "telecommunications, connectivity, network coverage, subscribers, broadband, mobile network, telecom services, " +
			"bandwidth, network infrastructure, voice services, data plans, customer care, installation, service areas, " +
			"network reliability, carriers, spectrum, telecom operators, roaming, communications",
		niches: []nicheSpec{
			{"fiber broadband",
				"households, small businesses, rural communities, apartment buildings, municipalities, schools",
				"fiber broadband, fiber to the home, FTTH, gigabit internet, symmetrical speeds, fiber network build-out, " +
					"last-mile connectivity, fiber installation, ONT, home router, internet plans, rural broadband, " +
					"broadband availability checker, open access network, wholesale fiber, dark fiber, leased lines, " +
					"business internet, static IP addresses, fiber rollout, street cabinets, ducts and poles, passive optical network, " +
					"GPON, XGS-PON, homes passed, take-up rates, broadband vouchers, multi-dwelling units, whole-home Wi-Fi, " +
					"mesh Wi-Fi, no data caps, installation appointments, network outages, speed tests, fiber splicing crews, " +
					"fiber plans, router setup, broadband installers, " +
					"fiber connection"},
			{"mobile and wireless",
				"consumers, families, businesses, IoT device makers, travelers, fleet operators",
				"mobile network operator, MVNO, 5G network, 4G LTE, SIM cards, eSIM, prepaid plans, postpaid plans, " +
					"unlimited data, family plans, roaming packages, mobile coverage maps, cell towers, small cells, " +
					"fixed wireless access, IoT connectivity, M2M SIMs, private 5G networks, network slicing, spectrum licenses, " +
					"handset financing, phone upgrades, number porting, mobile hotspots, Wi-Fi calling, VoLTE, base stations, " +
					"radio access network, Open RAN, tower sites, rural coverage, satellite connectivity, international calling, " +
					"data rollover, SIM-only deals, device insurance, 5G home internet, " +
					"mobile plans, SIM activation, network upgrades to 5G"},
			{"unified communications",
				"businesses, contact centers, remote teams, healthcare providers, retailers, IT managers",
				"unified communications, UCaaS, cloud phone system, VoIP, hosted PBX, SIP trunking, business phone numbers, " +
					"call routing, IVR, auto attendant, call queues, video conferencing, team messaging, contact center software, " +
					"CCaaS, call recording, softphones, desk phones, toll-free numbers, SMS API, voice API, programmable messaging, " +
					"WhatsApp business messaging, number porting, call analytics, CRM telephony integration, conference bridges, " +
					"Microsoft Teams calling, voicemail to email, hunt groups, call forwarding, emergency calling, " +
					"international numbers, call center agents, omnichannel contact center, speech IVR, two-factor SMS, " +
					"virtual phone numbers, call flows, video meetings"},
			{"telecom infrastructure",
				"mobile operators, tower companies, utilities, governments, data center operators, equipment vendors",
				"telecom infrastructure, tower construction, site acquisition, network deployment, RF engineering, " +
					"microwave backhaul, fiber backhaul, subsea cables, data center interconnect, network design services, " +
					"drive testing, site surveys, antenna installation, rooftop sites, in-building coverage, distributed antenna systems, " +
					"DAS, tower leasing, colocation on towers, power systems for sites, network operations center, NOC services, " +
					"field engineering, network maintenance, telecom civil works, trenching, cable laying, optical transport, DWDM, " +
					"core network, network integration, spectrum planning, interference analysis, satellite ground stations, " +
					"teleport services, rural network projects, " +
					"tower upgrades, radio sites, backhaul links, " +
					"tower maintenance"},
		},
	},
	{
		label: "SEMICONDUCTORS", weight: 1, arch: archIndustrial, size: 1,
		kinds:   "semiconductor company, chip company, fabless chip designer",
		names:   "Silicon, Semiconductor, Chips, Micro",
		models:  "B2B:10",
		related: "HARDWARE_ELECTRONICS MANUFACTURING AUTOMOTIVE",
		vendors: "cadence.com synopsys.com arm.com altium.com sap.com",
		terms: "semiconductors, integrated circuits, chips, silicon, wafers, process nodes, chip design, foundries, " +
			"semiconductor manufacturing, yield, power efficiency, performance per watt, datasheets, evaluation boards, " +
			"samples, design wins, OEMs, reference designs, packaging",
		niches: []nicheSpec{
			{"analog and power chips",
				"automotive suppliers, industrial equipment makers, power supply designers, consumer electronics brands, EV makers, telecom equipment makers",
				"analog ICs, power management ICs, PMIC, voltage regulators, DC-DC converters, LDO regulators, gate drivers, " +
					"battery management ICs, battery chargers, motor drivers, operational amplifiers, data converters, ADCs, DACs, " +
					"GaN transistors, silicon carbide MOSFETs, power modules, isolation ICs, current sensing, load switches, " +
					"LED drivers, audio amplifiers, precision references, signal chain, mixed-signal design, wide-bandgap devices, " +
					"thermal performance, switching frequency, power density, inverter designs, onboard chargers, " +
					"AEC-Q100 qualification, functional safety, low quiescent current, energy harvesting, eFuses, hot-swap controllers, " +
					"power stages, analog front ends, voltage supervisors"},
			{"processors and AI accelerators",
				"cloud providers, device makers, automotive OEMs, robotics companies, data center operators, edge AI developers",
				"processors, CPUs, GPUs, AI accelerators, neural processing units, NPU, systems on chip, SoC design, RISC-V cores, " +
					"Arm cores, microcontrollers, MCUs, FPGAs, chiplets, high-bandwidth memory, inference chips, training accelerators, " +
					"tensor cores, TOPS per watt, compilers for accelerators, software development kits, edge AI modules, " +
					"automotive SoCs, application processors, DSP cores, interconnects, PCIe, CXL, SerDes, cache coherence, " +
					"custom silicon, ASIC design, tape-out, IP cores, verification, emulation, silicon validation, " +
					"reference boards, firmware, " +
					"compute dies, accelerator cards, AI inference silicon"},
			{"semiconductor equipment and materials",
				"chip foundries, memory makers, packaging houses, research fabs, materials scientists, fab engineers",
				"wafer fabrication equipment, lithography, etch systems, deposition tools, CVD, ALD, PVD, ion implantation, " +
					"chemical mechanical planarization, metrology tools, wafer inspection, cleanroom equipment, wafer handling, " +
					"photoresists, specialty gases, sputtering targets, silicon wafers, SiC substrates, process chemicals, " +
					"advanced packaging, wafer-level packaging, flip chip, wire bonding, probe cards, test handlers, ATE, " +
					"burn-in systems, yield management, fab automation, spare parts, tool refurbishment, vacuum pumps, " +
					"process control, defect review, EUV, front-end processing, back-end assembly, cleanroom consumables, " +
					"wafer cleaning, deposition chambers, fab tools service, mask inspection, epitaxy, dicing saws, " +
					"process gases"},
		},
	},
	{
		label: "HARDWARE_ELECTRONICS", weight: 2, arch: archIndustrial,
		kinds:   "electronics manufacturer, hardware company, electronics design firm",
		names:   "Electronics, Devices, Circuits, Instruments",
		models:  "B2B:7 B2C:3",
		related: "SEMICONDUCTORS MANUFACTURING TELECOMMUNICATIONS",
		vendors: "altium.com digikey.com mouser.com octopart.com sap.com shopify.com",
		terms: "electronics, hardware, electronic devices, circuit design, components, prototypes, firmware, product design, " +
			"certifications, CE marking, FCC certification, manufacturing partners, reliability testing, enclosures, " +
			"power supplies, connectivity, sensors, production runs, bill of materials, supply chain",
		niches: []nicheSpec{
			{"PCB design and assembly",
				"hardware startups, OEMs, medical device makers, industrial companies, defense contractors, product designers",
				"PCB design, printed circuit boards, PCB assembly, SMT assembly, through-hole assembly, PCB layout, schematic capture, " +
					"multilayer boards, HDI boards, flex PCBs, rigid-flex boards, quick-turn prototypes, stencils, pick and place, " +
					"reflow soldering, AOI inspection, X-ray inspection, functional testing, in-circuit testing, box build, " +
					"cable harnesses, conformal coating, component sourcing, BOM scrubbing, turnkey manufacturing, " +
					"design for manufacturing, DFM reviews, Gerber files, impedance control, panelization, IPC standards, " +
					"low-volume production, high-mix manufacturing, NPI, electronics manufacturing services, EMS, lead-free soldering, " +
					"PCB prototypes, assembly quotes, solder paste inspection"},
			{"IoT devices",
				"smart home brands, utilities, logistics companies, building managers, agritech companies, product startups",
				"IoT devices, connected sensors, smart home devices, LoRaWAN, Zigbee, BLE modules, Wi-Fi modules, cellular IoT, " +
					"NB-IoT, LTE-M, IoT gateways, device management, over-the-air updates, OTA firmware, asset trackers, " +
					"GPS trackers, environmental sensors, temperature monitoring, smart meters, battery-powered sensors, " +
					"low-power design, device provisioning, IoT cloud platform, telemetry, edge gateways, industrial IoT, " +
					"smart locks, smart thermostats, wearables, BLE beacons, condition monitoring sensors, remote monitoring, " +
					"sensor fusion, embedded Linux, RTOS, device security, IoT dashboards, " +
					"sensor networks, IoT firmware, device fleets"},
			{"consumer electronics",
				"consumers, gamers, audiophiles, retailers, home office workers, content creators",
				"consumer electronics, headphones, wireless earbuds, Bluetooth speakers, soundbars, smart speakers, chargers, " +
					"power banks, USB-C hubs, docking stations, keyboards, gaming mice, webcams, monitors, laptops, tablets, " +
					"smartwatches, fitness trackers, action cameras, drones, TVs, streaming devices, home audio, hi-fi amplifiers, " +
					"turntables, noise cancellation, battery life, product warranty, firmware updates, companion app, " +
					"retail packaging, accessories, cables, e-readers, VR headsets, gaming headsets, microphones, smart lighting, " +
					"portable projectors, " +
					"gadgets, wireless chargers, smart rings, tech accessories, earbuds cases, portable monitors"},
			{"test and measurement",
				"electronics engineers, labs, universities, telecom companies, automotive engineers, aerospace suppliers",
				"test and measurement, oscilloscopes, spectrum analyzers, signal generators, multimeters, power analyzers, " +
					"network analyzers, data acquisition, DAQ systems, logic analyzers, protocol analyzers, EMC testing, " +
					"EMI pre-compliance, calibration services, bench power supplies, electronic loads, thermal chambers, " +
					"test fixtures, automated test equipment, test software, probes, RF test, wireless test, battery testing, " +
					"sensor calibration, LCR meters, frequency counters, waveform analysis, measurement accuracy, traceable calibration, " +
					"ISO 17025 calibration, test automation, rental equipment, used test equipment, lab instruments, " +
					"field instruments, cable testers, " +
					"measurement instruments, test benches, calibration certificates"},
		},
	},
	{
		label: "GAMING", weight: 2, arch: archMedia,
		kinds:   "game studio, games company, game developer",
		names:   "Games, Gaming, Interactive, Arcade",
		models:  "B2C:8 B2B:2",
		related: "ENTERTAINMENT SOFTWARE MEDIA_PUBLISHING",
		vendors: "unity.com epicgames.com steampowered.com discord.com twitch.tv playfab.com",
		terms: "games, gaming, players, game development, gameplay, game design, game studio, launch trailer, " +
			"updates and patches, player community, multiplayer, PC and console, game engine, level design, " +
			"game art, early access, wishlist, reviews, Discord community, game soundtrack",
		niches: []nicheSpec{
			{"mobile games",
				"casual players, puzzle fans, mobile gamers, families, commuters, advertisers",
				"mobile games, free-to-play, casual games, hyper-casual games, puzzle games, match-3, idle games, " +
					"in-app purchases, rewarded ads, ad mediation, user acquisition, live ops, daily rewards, battle pass, " +
					"player retention, D1 retention, ARPDAU, monetization design, soft launch, app store featuring, " +
					"game analytics, A/B testing features, leaderboards, push notifications for games, cross-promotion, " +
					"virtual currency, loot boxes, season events, merge games, word games, trivia games, casual multiplayer, " +
					"tablet games, offline games, game updates, cozy games, player segmentation, " +
					"casual puzzles, level packs, mobile leaderboards"},
			{"PC and console games",
				"PC gamers, console players, streamers, game publishers, modders, collectors",
				"PC games, console games, PlayStation, Xbox, Nintendo Switch, Steam releases, AAA games, indie games, " +
					"open world, role-playing games, RPG, action adventure, first-person shooter, strategy games, survival games, " +
					"roguelike, narrative design, story-driven games, game trailers, collector's edition, DLC, expansions, " +
					"modding tools, controller support, co-op campaign, ray tracing graphics, frame rate, game ports, " +
					"physical editions, game publishing, console certification, demo builds, playtesting, speedrunning, " +
					"achievements, cutscenes, voice acting, " +
					"patch notes, console launches, game editions"},
			{"esports and competitive gaming",
				"esports fans, pro players, tournament organizers, sponsors, streamers, gaming communities",
				"esports, esports teams, tournaments, leagues, competitive gaming, pro players, team rosters, coaching, " +
					"scrims, LAN events, prize pools, brackets, tournament platform, matchmaking, ranked ladders, " +
					"live broadcasts, casters, esports sponsorship, fan engagement, team merchandise, jerseys, " +
					"gaming house, player contracts, esports betting integrity, anti-cheat, stats tracking, highlight reels, " +
					"esports arena, viewership, Twitch streams, creator partnerships, collegiate esports, grassroots tournaments, " +
					"qualifiers, MOBA, battle royale, fighting games, team academy, " +
					"tournament series, esports rosters, match broadcasts, pro circuits, esports coaching staff"},
			{"game technology services",
				"game studios, publishers, indie developers, platform holders, live-service games, VR developers",
				"game development services, co-development, porting services, game QA, localization testing, compatibility testing, " +
					"player support outsourcing, game servers, dedicated server hosting, matchmaking services, backend as a service, " +
					"game analytics platform, anti-cheat software, voice chat SDK, game engines, Unreal Engine, Unity development, " +
					"3D asset outsourcing, character art, environment art, animation outsourcing, motion capture, game audio, " +
					"VR development, AR games, procedural generation, netcode, cross-play, cloud gaming, build pipelines, " +
					"game economy design, community moderation, live operations tools, crash analytics, game trailers production, " +
					"game QA testers, art outsourcing studios, multiplayer backend, localization services for games, " +
					"porting to consoles"},
		},
	},
}
